import { describe, expect, it } from 'vitest';
import { createBudget } from '../../src/policy/budget';
import { planRequest } from '../../src/policy/plan-request';
import { ModelCallError, modelFailure } from '../../src/providers/model-error';
import { AttemptsFailedError } from '../../src/reason/attempts-failed-error';
import { runAttempts } from '../../src/reason/run-attempts';
import { catalogOf, simModel } from '../helpers/catalog-fixtures';

// A failed request is typed: the loop throws the trace as a value, and the wire body stays the one
// error body, with the ModelError fields and then `decision` in `details`, as before the types existed.

const catalog = catalogOf([simModel('a', { quality: 90 }), simModel('b', { quality: 80 })]);
const needs = { tools: false, json: false, privacy: 'public' as const, inputTokens: 100 };

async function failingRun(): Promise<unknown> {
  const plan = planRequest({
    policy: {},
    needs,
    catalog,
    notConfigured: () => undefined,
    left: { costUsd: Number.POSITIVE_INFINITY, timeMs: Number.POSITIVE_INFINITY },
  });
  try {
    await runAttempts(
      plan,
      createBudget({}, 0),
      async () => {
        throw modelFailure({ message: 'no', dispatch: 'sent', status: 400, kind: 'invalid_request' });
      },
      { now: () => 0, sleep: async () => undefined, random: () => 0.5 },
    );
  } catch (error) {
    return error;
  }
  throw new Error('the run did not fail');
}

describe('typed failures of the attempt loop', () => {
  it('throws an AttemptsFailedError whose trace is the one on the wire', async () => {
    const error = await failingRun();
    expect(error).toBeInstanceOf(AttemptsFailedError);
    const failed = error as AttemptsFailedError;
    // invalid_request is the caller's fault: the loop stops at the first model.
    expect(failed.attempts.map((a) => [a.model, a.outcome, a.errorKind])).toEqual([
      ['a', 'error', 'invalid_request'],
    ]);
    expect(failed.details?.decision).toBe(failed.decision);
    expect(failed.spentUsd).toBe(0);
  });

  it('keeps the error body byte for byte: the ModelError fields, the catalog names, then the decision', async () => {
    const failed = (await failingRun()) as AttemptsFailedError;
    const body = failed.toErrorObject('req-1');
    expect(Object.keys(body)).toEqual(['code', 'message', 'category', 'retryable', 'details', 'requestId']);
    expect(body.code).toBe('model.invalid_request');
    expect(Object.keys(body.details ?? {})).toEqual([
      'message',
      'dispatch',
      'status',
      'kind',
      'provider',
      'model',
      'decision',
    ]);
    expect(body.details).toMatchObject({ provider: 'sim', model: 'a', kind: 'invalid_request', status: 400 });
  });

  it('carries the classified ModelError on an adapter failure, as its details on the wire', () => {
    const error = modelFailure({ kind: 'rate_limited', message: 'slow down', retry_after_ms: 1000 });
    expect(error).toBeInstanceOf(ModelCallError);
    expect(error.modelError).toEqual({ kind: 'rate_limited', message: 'slow down', retry_after_ms: 1000 });
    expect(error.details).toEqual({ kind: 'rate_limited', message: 'slow down', retry_after_ms: 1000 });
    expect(error.code).toBe('model.rate_limited');
  });
});
