import type { ModelError, ModelErrorKind } from '../model/model-error';

/** What to do after a failed attempt by its ModelError kind. */
export type RetryDecision =
  | { action: 'retry'; delayMs: number; reason: string }
  | {
      action: 'failover';
      reason: string;
      /** auth, permission, quota_exhausted, not_found: the provider's circuit opens. */
      openProviderCircuit?: boolean;
      /** context_overflow: only a model with a larger window than this may follow. */
      minContextTokens?: number;
    }
  | { action: 'stop'; reason: string };

export interface RetryContext {
  /** Retries already made on this model in this request. */
  retries: number;
  /** Retries allowed on one model (default 2). */
  maxRetries?: number;
  /** Time left before the request's deadline. */
  timeLeftMs: number;
  /** The least time a retry needs to be worth starting (the model's p50 time to first token). */
  minAttemptMs: number;
  /** The context window of the model that failed. */
  contextTokens: number;
  /** Fail over after a content filter (off by default: the reason is propagated instead). */
  failoverOnContentFilter?: boolean;
  /** A number in [0, 1): the jitter. */
  random: number;
}

export const defaultMaxRetries = 2;
const backoffBaseMs = 200;
const backoffMaxMs = 5_000;
/** Never retry sooner than this, whatever the jitter: no tight loops. */
export const minRetryDelayMs = 50;

const transient = new Set<ModelErrorKind>(['rate_limited', 'overloaded', 'server', 'network']);
// A bad key, a missing permission or a spent quota holds for every model of the provider; a 404 names
// one model id, so it counts against that model alone.
const opensProvider = new Set<ModelErrorKind>(['auth', 'permission', 'quota_exhausted']);

/** Exponential backoff with jitter: half the step fixed, half random, at least `minRetryDelayMs`. */
export function backoffMs(retries: number, random: number): number {
  const step = Math.min(backoffMaxMs, backoffBaseMs * 2 ** retries);
  return Math.max(minRetryDelayMs, Math.round(step / 2 + (step / 2) * random));
}

/**
 * Whether a failed attempt is retried on the same model, fails over to the next planned one, or ends
 * the request. Pure: the error and the budget in, the decision out.
 */
export function decideRetry(error: ModelError, context: RetryContext): RetryDecision {
  if (error.emitted_deltas) {
    return { action: 'stop', reason: 'output already reached the caller; another model is never spliced in' };
  }
  const kind = error.kind;
  if (transient.has(kind)) {
    const maxRetries = context.maxRetries ?? defaultMaxRetries;
    if (context.retries >= maxRetries) {
      return { action: 'failover', reason: `${kind}: ${maxRetries} retries used` };
    }
    const backoff = backoffMs(context.retries, context.random);
    const delayMs =
      error.retry_after_ms === undefined ? backoff : Math.max(minRetryDelayMs, error.retry_after_ms);
    if (delayMs + context.minAttemptMs > context.timeLeftMs) {
      const wait =
        error.retry_after_ms === undefined ? `a ${delayMs} ms backoff` : `Retry-After ${delayMs} ms`;
      return {
        action: 'failover',
        reason: `${kind}: ${wait} does not fit ${Math.round(context.timeLeftMs)} ms left`,
      };
    }
    return {
      action: 'retry',
      delayMs,
      reason: `${kind}: retry ${context.retries + 1} of ${maxRetries} after ${delayMs} ms`,
    };
  }
  if (opensProvider.has(kind)) {
    return { action: 'failover', reason: `${kind}: the provider's circuit opens`, openProviderCircuit: true };
  }
  switch (kind) {
    case 'not_found':
      return { action: 'failover', reason: 'not_found: the provider does not know this model id' };
    case 'timeout':
    case 'invalid_response':
    case 'unknown':
      return { action: 'failover', reason: `${kind}: another model may answer` };
    case 'context_overflow':
      return {
        action: 'failover',
        reason: `context_overflow: only a model with a window over ${context.contextTokens} tokens`,
        minContextTokens: context.contextTokens + 1,
      };
    case 'content_filter':
      return context.failoverOnContentFilter
        ? { action: 'failover', reason: 'content_filter: failover allowed by configuration' }
        : { action: 'stop', reason: 'content_filter: the reason is propagated, no other model is tried' };
    default:
      return { action: 'stop', reason: `${kind}: the request itself is at fault` };
  }
}
