import { describe, expect, it } from 'vitest';
import type { ModelError, ModelErrorKind } from '../../src/model/model-error';
import { backoffMs, decideRetry, minRetryDelayMs, type RetryContext } from '../../src/policy/decide-retry';

const context: RetryContext = {
  retries: 0,
  timeLeftMs: 10_000,
  minAttemptMs: 100,
  contextTokens: 8000,
  random: 0.5,
};
const error = (kind: ModelErrorKind, extra: Partial<ModelError> = {}): ModelError => ({
  kind,
  message: kind,
  ...extra,
});

describe('decideRetry: the error table of providers.md', () => {
  it.each([
    { kind: 'rate_limited', action: 'retry' },
    { kind: 'overloaded', action: 'retry' },
    { kind: 'server', action: 'retry' },
    { kind: 'network', action: 'retry' },
    { kind: 'timeout', action: 'failover' },
    { kind: 'context_overflow', action: 'failover' },
    { kind: 'content_filter', action: 'stop' },
    { kind: 'auth', action: 'failover' },
    { kind: 'permission', action: 'failover' },
    { kind: 'quota_exhausted', action: 'failover' },
    { kind: 'not_found', action: 'failover' },
    { kind: 'invalid_request', action: 'stop' },
    { kind: 'invalid_response', action: 'failover' },
    { kind: 'unknown', action: 'failover' },
  ] as const)('$kind → $action', ({ kind, action }) => {
    expect(decideRetry(error(kind), context).action).toBe(action);
  });

  it.each(['auth', 'permission', 'quota_exhausted'] as const)('%s opens the provider’s circuit', (kind) => {
    expect(decideRetry(error(kind), context)).toMatchObject({
      action: 'failover',
      openProviderCircuit: true,
    });
  });

  it('fails over on not_found without opening the circuit of the provider’s other models', () => {
    const decision = decideRetry(error('not_found'), context);
    expect(decision.action).toBe('failover');
    expect(decision).not.toHaveProperty('openProviderCircuit');
  });

  it('lets a context overflow fail over only to a larger window', () => {
    expect(decideRetry(error('context_overflow'), context)).toMatchObject({ minContextTokens: 8001 });
  });

  it('fails over after a content filter only when configured to', () => {
    expect(decideRetry(error('content_filter'), { ...context, failoverOnContentFilter: true }).action).toBe(
      'failover',
    );
  });

  it('retries at most twice by default, then fails over', () => {
    expect(decideRetry(error('server'), { ...context, retries: 1 }).action).toBe('retry');
    expect(decideRetry(error('server'), { ...context, retries: 2 })).toMatchObject({
      action: 'failover',
      reason: 'server: 2 retries used',
    });
    expect(decideRetry(error('server'), { ...context, retries: 0, maxRetries: 0 }).action).toBe('failover');
  });

  it('honours Retry-After when it fits the deadline', () => {
    expect(decideRetry(error('rate_limited', { retry_after_ms: 2000 }), context)).toMatchObject({
      action: 'retry',
      delayMs: 2000,
    });
  });

  it('fails over instead of waiting a Retry-After that does not fit the time left', () => {
    const decision = decideRetry(error('rate_limited', { retry_after_ms: 5000 }), {
      ...context,
      timeLeftMs: 3000,
    });
    expect(decision).toMatchObject({
      action: 'failover',
      reason: 'rate_limited: Retry-After 5000 ms does not fit 3000 ms left',
    });
  });

  it('never retries in a tight loop, even with Retry-After: 0 or no jitter', () => {
    expect(decideRetry(error('overloaded', { retry_after_ms: 0 }), context)).toMatchObject({
      delayMs: minRetryDelayMs,
    });
    for (let retries = 0; retries < 6; retries++) {
      expect(backoffMs(retries, 0)).toBeGreaterThanOrEqual(minRetryDelayMs);
    }
  });

  it('backs off exponentially with jitter between half and all of each step', () => {
    expect([backoffMs(0, 0), backoffMs(0, 0.999)]).toEqual([100, 200]);
    expect([backoffMs(1, 0), backoffMs(2, 0)]).toEqual([200, 400]);
    expect(backoffMs(20, 1)).toBe(5000);
  });

  it('stops once output reached the caller: no other model is spliced in', () => {
    expect(decideRetry(error('server', { emitted_deltas: true }), context).action).toBe('stop');
  });
});
