import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors';
import type { ModelError, ModelErrorKind } from '../../src/model/model-error';
import { createBudget } from '../../src/policy/budget';
import type { Catalog } from '../../src/policy/catalog';
import { planRequest } from '../../src/policy/plan-request';
import { modelFailure } from '../../src/providers/model-error';
import { type AttemptInput, runAttempts } from '../../src/reason/run-attempts';
import { catalogOf, simModel } from '../helpers/catalog-fixtures';

// The attempt loop against providers.md's error table: which models each failure kind leads to, with
// a scripted attempt function (no network, no clock).

const needs = { tools: false, json: false, privacy: 'public' as const, inputTokens: 100 };

/** a (quality 90, 8k window) and b (quality 80, 200k) on provider p; c (quality 70, 200k) on provider q. */
const catalog: Catalog = catalogOf(
  [
    simModel('a', { provider: 'p', quality: 90, contextTokens: 8000 }),
    simModel('b', { provider: 'p', quality: 80, contextTokens: 200_000 }),
    simModel('c', { provider: 'q', quality: 70, contextTokens: 200_000 }),
  ],
  [
    { id: 'p', kind: 'sim' },
    { id: 'q', kind: 'sim' },
  ],
);

async function run(failures: Record<string, Partial<ModelError> & { kind: ModelErrorKind }>) {
  const plan = planRequest({
    policy: {},
    needs,
    catalog,
    notConfigured: () => undefined,
    left: { costUsd: Number.POSITIVE_INFINITY, timeMs: Number.POSITIVE_INFINITY },
  });
  const calls: string[] = [];
  const inputs: AttemptInput[] = [];
  const sleeps: number[] = [];
  let outcome: string;
  let trace: { model: string; outcome: string; reason?: string; errorKind?: string }[] = [];
  try {
    const result = await runAttempts(
      plan,
      createBudget({}, 0),
      async (input) => {
        calls.push(input.attempt.model);
        inputs.push(input);
        const failure = failures[input.attempt.model];
        if (failure) throw modelFailure({ message: failure.kind, dispatch: 'sent', status: 400, ...failure });
        return { value: input.attempt.model, usage: { input_tokens: 10, output_tokens: 5 }, costUsd: 0.001 };
      },
      { now: () => 0, sleep: async (ms) => void sleeps.push(ms), random: () => 0.5 },
    );
    outcome = `ok:${result.value}`;
    trace = result.attempts;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    outcome = error.code;
    trace = (error.details?.decision as { attempts: typeof trace } | undefined)?.attempts ?? [];
  }
  return { calls, inputs, sleeps, outcome, trace };
}

describe('runAttempts follows the error table', () => {
  it.each([
    { kind: 'rate_limited', calls: ['a', 'a', 'a', 'b'], outcome: 'ok:b' },
    { kind: 'overloaded', calls: ['a', 'a', 'a', 'b'], outcome: 'ok:b' },
    { kind: 'server', calls: ['a', 'a', 'a', 'b'], outcome: 'ok:b' },
    { kind: 'network', calls: ['a', 'a', 'a', 'b'], outcome: 'ok:b' },
    // No same-model retry.
    { kind: 'timeout', calls: ['a', 'b'], outcome: 'ok:b' },
    { kind: 'invalid_response', calls: ['a', 'b'], outcome: 'ok:b' },
    // Only a larger window: b (200k) follows a (8k).
    { kind: 'context_overflow', calls: ['a', 'b'], outcome: 'ok:b' },
    // Propagated: no other model.
    { kind: 'content_filter', calls: ['a'], outcome: 'model.content_filter' },
    { kind: 'invalid_request', calls: ['a'], outcome: 'model.invalid_request' },
    // The provider's circuit opens: b (same provider p) is skipped, c (provider q) answers.
    { kind: 'auth', calls: ['a', 'c'], outcome: 'ok:c' },
    { kind: 'permission', calls: ['a', 'c'], outcome: 'ok:c' },
    { kind: 'quota_exhausted', calls: ['a', 'c'], outcome: 'ok:c' },
    // A 404 names one model id: b, another model of the same provider, is still tried.
    { kind: 'not_found', calls: ['a', 'b'], outcome: 'ok:b' },
  ] as const)('$kind on the first model → calls $calls, $outcome', async ({ kind, calls, outcome }) => {
    const result = await run({ a: { kind } });
    expect(result.calls).toEqual(calls);
    expect(result.outcome).toBe(outcome);
  });

  it('skips a model whose window is not larger after a context overflow', async () => {
    const result2 = await run({ a: { kind: 'context_overflow' }, b: { kind: 'context_overflow' } });
    expect(result2.calls).toEqual(['a', 'b']);
    expect(result2.outcome).toBe('model.context_overflow');
    expect(result2.trace.at(-1)).toMatchObject({ model: 'c', outcome: 'skipped', reason: 'context_window' });
  });

  it('records the provider’s circuit as the reason a same-provider model is skipped', async () => {
    const result = await run({ a: { kind: 'auth' } });
    expect(result.trace[1]).toMatchObject({ model: 'b', outcome: 'skipped', reason: 'circuit_open' });
  });

  it('waits a jittered backoff before each retry, and Retry-After when the provider sent one', async () => {
    expect((await run({ a: { kind: 'server' } })).sleeps).toEqual([150, 300]);
    expect((await run({ a: { kind: 'rate_limited', retry_after_ms: 700 } })).sleeps).toEqual([700, 700]);
  });

  it('names the catalog’s provider in the error, not the adapter’s kind', async () => {
    const plan = planRequest({
      policy: { allowFallback: false },
      needs,
      catalog,
      notConfigured: () => undefined,
      left: { costUsd: Number.POSITIVE_INFINITY, timeMs: Number.POSITIVE_INFINITY },
    });
    const error = await runAttempts(
      plan,
      createBudget({}, 0),
      async () => {
        throw modelFailure({ kind: 'content_filter', message: 'no', provider: 'openai', model: 'gpt-x' });
      },
      { now: () => 0, sleep: async () => undefined, random: () => 0.5 },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).details).toMatchObject({ kind: 'content_filter', provider: 'p', model: 'a' });
  });

  it('gives each attempt the time left and the reserve of the next planned model', async () => {
    const result = await run({ a: { kind: 'timeout' } });
    expect(result.inputs.map((i) => i.reserveMs)).toEqual([
      40 + (256 / 1000) * 1000, // b: p90 40 ms + 256 tokens at 1000/s
      40 + (256 / 1000) * 1000, // c
    ]);
    expect(result.inputs[0]?.timeLeftMs).toBe(Number.POSITIVE_INFINITY);
  });

  it('reports usage for an answer, none for a refused call, and unknown for one that may have produced output', async () => {
    const refused = await run({ a: { kind: 'auth', status: 401 } });
    expect(refused.trace[0]).toMatchObject({
      usage: { inputTokens: 0, outputTokens: 0, reasoningTokens: 0, cacheReadTokens: 0 },
    });
    expect(refused.trace.at(-1)).toMatchObject({
      outcome: 'ok',
      usage: { inputTokens: 10, outputTokens: 5, reasoningTokens: 0, cacheReadTokens: 0 },
    });
    const silent = await run({ a: { kind: 'timeout', status: undefined } });
    expect(silent.trace[0]).not.toHaveProperty('usage.inputTokens');
  });
});

describe('runAttempts arms an idle timer only where it can go off before the deadline', () => {
  async function idleLimits(catalogUsed: Catalog, maxLatencyMs: number) {
    const policy = { maxLatencyMs };
    const plan = planRequest({
      policy,
      needs,
      catalog: catalogUsed,
      notConfigured: () => undefined,
      left: { costUsd: Number.POSITIVE_INFINITY, timeMs: maxLatencyMs },
    });
    const seen: { model: string; idle: number | undefined }[] = [];
    await runAttempts(
      plan,
      createBudget(policy, 0),
      async (input) => {
        seen.push({ model: input.attempt.model, idle: input.idleTimeoutMs });
        if (input.attempt.model === 'a')
          throw modelFailure({ kind: 'timeout', message: 'silent', dispatch: 'sent' });
        return { value: input.attempt.model, usage: { input_tokens: 10, output_tokens: 5 }, costUsd: 0.001 };
      },
      { now: () => 0, sleep: async () => undefined, random: () => 0.5 },
    );
    return seen;
  }

  it('gives a model with a fallback after it its stall limit, and the last model none of its own', async () => {
    const pair = catalogOf(
      [
        simModel('a', { provider: 'p', quality: 90, contextTokens: 200_000 }),
        simModel('b', { provider: 'p', quality: 80, contextTokens: 200_000 }),
      ],
      [{ id: 'p', kind: 'sim' }],
    );
    const seen = await idleLimits(pair, 60_000);
    expect(seen.map((s) => s.model)).toEqual(['a', 'b']);
    expect(seen[0]?.model).toBe('a');
    expect(seen[0]?.idle).toBeGreaterThan(0);
    expect(seen[0]?.idle).toBeLessThan(60_000);
    // The last model's silence is cut by the caller's deadline alone: the attempt's own timer.
    expect(seen.at(-1)?.idle).toBeUndefined();
  });

  it('arms none for a lone model, whose idle limit would be the time left', async () => {
    const lone = catalogOf(
      [simModel('b', { provider: 'p', quality: 80, contextTokens: 200_000 })],
      [{ id: 'p', kind: 'sim' }],
    );
    expect(await idleLimits(lone, 60_000)).toEqual([{ model: 'b', idle: undefined }]);
  });
});

describe('runAttempts moves shared health only for the model’s own faults', () => {
  async function observed(policy: { maxLatencyMs?: number }, status?: number) {
    const plan = planRequest({
      policy,
      needs,
      catalog,
      notConfigured: () => undefined,
      left: { costUsd: Number.POSITIVE_INFINITY, timeMs: policy.maxLatencyMs ?? Number.POSITIVE_INFINITY },
    });
    const observations: { model: string; ok: boolean }[] = [];
    const idle: (number | undefined)[] = [];
    await runAttempts(
      plan,
      createBudget(policy, 0),
      async (input) => {
        idle.push(input.idleTimeoutMs);
        if (input.attempt.model === 'a')
          throw modelFailure({ kind: 'timeout', message: 'silent', dispatch: 'sent', status });
        return { value: input.attempt.model, usage: { input_tokens: 10, output_tokens: 5 }, costUsd: 0.001 };
      },
      {
        now: () => 0,
        sleep: async () => undefined,
        random: () => 0.5,
        observe: (o) => observations.push({ model: o.model, ok: o.ok }),
      },
    );
    // With time to spare the first model's stall limit is armed; with 700 ms left its idle limit is
    // the deadline itself, which the attempt's own timer keeps.
    expect(idle[0] === undefined).toBe(policy.maxLatencyMs !== undefined);
    return observations;
  }

  it('counts a silence past the stall limit (time to spare, a fallback planned) against the model', async () => {
    expect(await observed({})).toEqual([
      { model: 'a', ok: false },
      { model: 'b', ok: true },
    ]);
  });

  it('does not count a timeout that the caller’s tight deadline set', async () => {
    // 700 ms left: the idle limit is the deadline, under both the stall limit and the fallback's room.
    expect(await observed({ maxLatencyMs: 700 })).toEqual([{ model: 'b', ok: true }]);
  });

  it('counts a timeout the provider answered itself (504) against the model, whatever the deadline', async () => {
    expect(await observed({ maxLatencyMs: 700 }, 504)).toEqual([
      { model: 'a', ok: false },
      { model: 'b', ok: true },
    ]);
  });
});

describe('runAttempts measures a model’s speed only over output', () => {
  async function speedObserved(outputTokens: number) {
    const plan = planRequest({
      policy: {},
      needs,
      catalog,
      notConfigured: () => undefined,
      left: { costUsd: Number.POSITIVE_INFINITY, timeMs: Number.POSITIVE_INFINITY },
    });
    let clock = 0;
    const speeds: (number | undefined)[] = [];
    await runAttempts(
      plan,
      createBudget({}, 0),
      async () => {
        clock += 500;
        return {
          value: 'x',
          usage: { input_tokens: 10, output_tokens: outputTokens },
          costUsd: 0.001,
          ttftMs: 100,
        };
      },
      {
        now: () => clock,
        sleep: async () => undefined,
        random: () => 0.5,
        observe: (o) => speeds.push(o.outputTokensPerSec),
      },
    );
    return speeds;
  }

  it('reports tokens a second after the first token for an attempt that wrote', async () => {
    expect(await speedObserved(40)).toEqual([100]);
  });

  it('reports no speed, rather than 0, for an attempt that counted no output', async () => {
    expect(await speedObserved(0)).toEqual([undefined]);
  });
});
