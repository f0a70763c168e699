import { describe, expect, it } from 'vitest';
import type { ModelError } from '../../src/model/model-error';
import { billAttempt } from '../../src/reason/bill-attempt';
import { simModel } from '../helpers/catalog-fixtures';

// One attempt's bill against maxCostUsd, for every way an attempt ends. The model costs $1 per million
// input tokens and $2 per million output tokens; the attempt was planned at max_tokens 500 with a
// worst case of $0.002 (1,000 input tokens and 500 output tokens).

const attempt = { provider: 'p', model: 'a', entry: simModel('a') };
const limits = { maxTokens: 500, worstCaseUsd: 0.002 };
const none = { inputTokens: 0, outputTokens: 0, reasoningTokens: 0, cacheReadTokens: 0 };

function failure(error: Partial<ModelError>) {
  return billAttempt({ ok: false, error: { kind: 'server', message: 'x', ...error } }, attempt, limits);
}

describe('billAttempt for an answer', () => {
  it('counts what the answer cost, with its usage and no warning when it kept to its limits', () => {
    const bill = billAttempt(
      { ok: true, costUsd: 0.0012, usage: { input_tokens: 1000, output_tokens: 100 } },
      attempt,
      limits,
    );
    expect(bill).toEqual({
      costUsd: 0.0012,
      usage: { inputTokens: 1000, outputTokens: 100, reasoningTokens: 0, cacheReadTokens: 0 },
    });
  });

  it('counts an answer that wrote past max_tokens as billed, with a model.over_budget warning', () => {
    const bill = billAttempt(
      { ok: true, costUsd: 0.0022, usage: { input_tokens: 1000, output_tokens: 600 } },
      attempt,
      limits,
    );
    expect(bill.costUsd).toBe(0.0022);
    expect(bill.usage?.outputTokens).toBe(600);
    expect(bill.warning).toEqual({
      code: 'model.over_budget',
      message:
        'p/a wrote 600 output tokens against max_tokens 500; it was billed $0.00220 against a worst case of $0.00200, counted as billed.',
    });
  });

  it('warns about an answer cut at its cap even when its bill stayed inside the worst case', () => {
    const bill = billAttempt(
      { ok: true, costUsd: 0.002, usage: { input_tokens: 1000, output_tokens: 500 }, cutAtCap: true },
      attempt,
      limits,
    );
    expect(bill.costUsd).toBe(0.002);
    expect(bill.warning?.message).toContain('kept writing past max_tokens 500');
  });

  it('warns about input billed past the plan, however few output tokens', () => {
    const bill = billAttempt(
      { ok: true, costUsd: 0.003, usage: { input_tokens: 2900, output_tokens: 50 } },
      attempt,
      limits,
    );
    expect(bill.warning?.message).toContain('billed 2900 input tokens, more than planned');
  });
});

describe('billAttempt for a failure', () => {
  it('counts the usage the provider reported for an answer Valve could not read, at the catalog prices', () => {
    const bill = failure({
      kind: 'invalid_response',
      status: 200,
      usage: { input_tokens: 1000, output_tokens: 250 },
    });
    // 1,000 × $1/M + 250 × $2/M
    expect(bill.costUsd).toBeCloseTo(0.0015, 12);
    expect(bill.usage).toEqual({
      inputTokens: 1000,
      outputTokens: 250,
      reasoningTokens: 0,
      cacheReadTokens: 0,
    });
  });

  it('counts the worst case, usage unknown, for a stream cut after it began', () => {
    expect(failure({ kind: 'network', dispatch: 'streaming' })).toEqual({ costUsd: 0.002, usage: undefined });
    expect(failure({ kind: 'network', dispatch: 'sent', emitted_deltas: true })).toEqual({
      costUsd: 0.002,
      usage: undefined,
    });
  });

  it('counts the worst case for a 2xx whose body was cut, stalled or malformed', () => {
    expect(failure({ kind: 'invalid_response', status: 200, dispatch: 'sent' })).toEqual({
      costUsd: 0.002,
      usage: undefined,
    });
  });

  it('counts the worst case, usage unknown, for a timeout once the request was sent', () => {
    expect(failure({ kind: 'timeout', dispatch: 'sent' })).toEqual({ costUsd: 0.002, usage: undefined });
  });

  it('counts nothing for a timeout before the request was sent, and reports no usage', () => {
    expect(failure({ kind: 'timeout', dispatch: 'not_sent' })).toEqual({ costUsd: 0, usage: none });
  });

  it('counts nothing for a refusal with an error status or a redirect, and reports no usage', () => {
    expect(failure({ kind: 'rate_limited', status: 429, dispatch: 'sent' })).toEqual({
      costUsd: 0,
      usage: none,
    });
    expect(failure({ kind: 'invalid_response', status: 302, dispatch: 'sent' })).toEqual({
      costUsd: 0,
      usage: none,
    });
  });

  it('counts nothing but leaves usage unknown for a failure with no status that may have been read', () => {
    expect(failure({ kind: 'network', dispatch: 'sent' })).toEqual({ costUsd: 0, usage: undefined });
  });

  it('counts the worst case for an error status after deltas reached the caller, usage unknown', () => {
    expect(failure({ kind: 'server', status: 500, dispatch: 'sent', emitted_deltas: true })).toEqual({
      costUsd: 0.002,
      usage: undefined,
    });
  });
});
