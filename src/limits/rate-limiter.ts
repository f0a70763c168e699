import { DurableObject } from 'cloudflare:workers';
import { type Bucket, type TakeResult, takeToken } from './token-bucket';

/**
 * Per-key request rate limiting: one Durable Object per API key holds the key's token bucket, so the
 * limit holds across every isolate and location (Cloudflare's rate-limiting binding fixes one limit in
 * wrangler.toml, while Valve's limits are set per key). The bucket lives in memory: writing it to
 * storage on every request would cost more than the limit is worth, and if the object is evicted the
 * bucket simply starts full again.
 */
export class RateLimiter extends DurableObject<Env> {
  private bucket: Bucket | undefined;

  take(perMinute: number): Omit<TakeResult, 'bucket'> {
    const result = takeToken(this.bucket, perMinute, Date.now());
    this.bucket = result.bucket;
    return { allowed: result.allowed, retryAfterMs: result.retryAfterMs, remaining: result.remaining };
  }
}
