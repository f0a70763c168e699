import { DurableObject } from 'cloudflare:workers';
import { type Bucket, type TakeResult, takeToken } from './token-bucket';

/**
 * Per-key request rate limiting: one Durable Object per API key, a token bucket kept in its storage,
 * so the limit holds across every isolate and location (Cloudflare's rate-limiting binding fixes the
 * limit in wrangler.toml, while Valve's limits are set per key at creation).
 */
export class RateLimiter extends DurableObject<Env> {
  take(perMinute: number): Omit<TakeResult, 'bucket'> {
    const stored = this.ctx.storage.kv.get<Bucket>('bucket');
    const result = takeToken(stored, perMinute, Date.now());
    this.ctx.storage.kv.put('bucket', result.bucket);
    return { allowed: result.allowed, retryAfterMs: result.retryAfterMs, remaining: result.remaining };
  }
}
