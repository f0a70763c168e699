import { DurableObject } from 'cloudflare:workers';
import { type Bucket, type LeaseResult, type TakeResult, takeToken, takeTokens } from './token-bucket';

/** The bucket is written at most this often… */
export const persistEveryMs = 1_000;
/** …unless more than this share of the limit was handed out since the last write. */
export const persistShare = 0.1;

/**
 * Per-key request rate limiting: one Durable Object per API key holds the key's token bucket, so the
 * limit holds across every isolate and location (Cloudflare's rate-limiting binding fixes one limit in
 * wrangler.toml, while Valve's limits are set per key). Isolates draw tokens in leases
 * (`lease`, see token-lease.ts) rather than one per request.
 *
 * The bucket survives eviction and restarts: it is written to the object's SQLite at most once a
 * second, or sooner once a tenth of the limit was handed out since the last write, so a restart can
 * forget fewer than a tenth of the key's per-minute limit.
 */
export class RateLimiter extends DurableObject<Env> {
  private bucket: Bucket | undefined;
  private writtenAt = 0;
  private grantedSinceWrite = 0;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    const sql = ctx.storage.sql;
    sql.exec('CREATE TABLE IF NOT EXISTS bucket (id INTEGER PRIMARY KEY, tokens REAL, updated_at INTEGER)');
    const row = sql
      .exec<{ tokens: number; updated_at: number }>('SELECT tokens, updated_at FROM bucket WHERE id = 1')
      .toArray()[0];
    if (row) this.bucket = { tokens: row.tokens, updatedAt: row.updated_at };
  }

  take(perMinute: number): Omit<TakeResult, 'bucket'> {
    const now = Date.now();
    const result = takeToken(this.bucket, perMinute, now);
    this.keep(result.bucket, result.allowed ? 1 : 0, perMinute, now);
    return { allowed: result.allowed, retryAfterMs: result.retryAfterMs, remaining: result.remaining };
  }

  /** Hands out up to `want` tokens at once, for an isolate to spend without asking again. */
  lease(perMinute: number, want: number): Omit<LeaseResult, 'bucket'> {
    const now = Date.now();
    const result = takeTokens(this.bucket, perMinute, now, want);
    this.keep(result.bucket, result.granted, perMinute, now);
    return { granted: result.granted, retryAfterMs: result.retryAfterMs, remaining: result.remaining };
  }

  private keep(bucket: Bucket, granted: number, perMinute: number, now: number): void {
    this.bucket = bucket;
    this.grantedSinceWrite += granted;
    if (now - this.writtenAt < persistEveryMs && this.grantedSinceWrite < perMinute * persistShare) return;
    this.ctx.storage.sql.exec(
      'INSERT OR REPLACE INTO bucket (id, tokens, updated_at) VALUES (1, ?, ?)',
      bucket.tokens,
      bucket.updatedAt,
    );
    this.writtenAt = now;
    this.grantedSinceWrite = 0;
  }
}
