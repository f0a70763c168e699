import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';
import { TokenLeases } from '../limits/token-lease';
import { countSetting } from '../settings';
import { stubByName } from '../storage/stub-by-name';

/** This isolate's leases of every key's tokens. */
export const tokenLeases = new TokenLeases();

/** A lease refill behind the answer: kept alive by `waitUntil`; a failed one only means the next draw is awaited. */
function keepAlive(c: Context<AppEnv>, work: () => Promise<unknown>): void {
  const promise = work().catch((error: unknown) => {
    console.warn(JSON.stringify({ level: 'warn', event: 'rate_limit.refill_failed', error: String(error) }));
  });
  try {
    c.executionCtx.waitUntil(promise);
  } catch {
    // No execution context (app.request in a unit test): the promise still runs to completion.
  }
}

/** Per-key requests-per-minute limit (after requireKey): over it, 429 `limit.rate_limited` with Retry-After. */
export const rateLimit = createMiddleware<AppEnv>(async (c, next) => {
  const caller = c.get('caller');
  const perMinute = caller.rateLimitPerMinute ?? countSetting(c.env, 'DEFAULT_RATE_LIMIT_PER_MINUTE');
  const result = await tokenLeases.take(caller.keyId, perMinute, {
    draw: (limit, want) => stubByName(c.env.RATE_LIMITER, caller.keyId).lease(limit, want),
    background: (work) => keepAlive(c, work),
    // A refill behind the answer is not a round trip the answer waits on; a draw it awaits is.
    wait: (work) => c.get('trips').time('do:rate-limit', work),
  });
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
