import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';

const fallbackPerMinute = 600;

/** Per-key requests-per-minute limit (after requireKey): over it, 429 `limit.rate_limited` with Retry-After. */
export const rateLimit = createMiddleware<AppEnv>(async (c, next) => {
  const caller = c.var.caller;
  const perMinute =
    caller.rateLimitPerMinute ?? (Number(c.env.DEFAULT_RATE_LIMIT_PER_MINUTE) || fallbackPerMinute);
  const result = await c.env.RATE_LIMITER.getByName(caller.keyId).take(perMinute);
  c.header('RateLimit-Limit', String(perMinute));
  c.header('RateLimit-Remaining', String(result.remaining));
  if (!result.allowed) {
    const seconds = Math.max(1, Math.ceil(result.retryAfterMs / 1000));
    throw new ApiError(
      'limit.rate_limited',
      `This key is over its limit of ${perMinute} requests a minute.`,
      {
        headers: { 'Retry-After': String(seconds) },
        details: { limitPerMinute: perMinute, retryAfterMs: result.retryAfterMs },
      },
    );
  }
  await next();
});
