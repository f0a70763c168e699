import { describe, expect, it } from 'vitest';
import { attemptLimits } from '../../src/policy/attempt-limits';
import { planRequest } from '../../src/policy/plan-request';
import type { Needs, Speed } from '../../src/policy/plan-types';
import { catalogOf, simModel } from '../helpers/catalog-fixtures';

// Media priced at a provider's limit (a URL, a file id, a file that cannot be read): its real size is
// unknown, so it counts toward what an attempt may cost, never toward whether the request fits a
// window; and no attempt is priced for more input than its model's window holds, since a provider
// refuses such input rather than bill it.

const speed: Speed = { ttftMsP50: 10, ttftMsP90: 20, outputTokensPerSec: 1000, source: 'catalog' };
const unlimited = { costUsd: Number.POSITIVE_INFINITY, timeMs: Number.POSITIVE_INFINITY };
// $10 per million input tokens, $20 per million output, a 100,000-token window.
const model = simModel('window', { priceUsdPerMTok: { input: 10, output: 20 }, contextTokens: 100_000 });
const base: Needs = {
  tools: false,
  json: false,
  privacy: 'public',
  inputTokens: 1_000,
  maxOutputTokens: 100,
};

describe('attempt limits with media priced at a provider’s limit', () => {
  it('prices the input at no more than the model’s window: 100,000 tokens at $10 per million', () => {
    const needs = { ...base, inputTokens: 16_561_000, unboundedTokens: 16_560_000 };
    const limits = attemptLimits(model, needs, unlimited, speed);
    expect(limits).toMatchObject({ ok: true, maxTokens: 100 });
    if (!limits.ok) throw new Error(limits.detail);
    expect(limits.worstCaseUsd).toBeCloseTo(1 + 100 * 20e-6, 9);
  });

  it('plans a request whose unbounded media pass every window, and excludes it when the known text does not fit', () => {
    const catalog = catalogOf([model]);
    const plan = (needs: Needs) =>
      planRequest({ policy: {}, needs, catalog, notConfigured: () => undefined, left: unlimited });
    const fits = plan({ ...base, inputTokens: 16_561_000, unboundedTokens: 16_560_000 });
    expect(fits.attempts.map((a) => a.model)).toEqual(['window']);
    const bounded = plan({ ...base, inputTokens: 16_561_000 });
    expect(bounded.excluded).toEqual([expect.objectContaining({ reason: 'context_window' })]);
  });

  it('refuses on cost when the window’s worth of input does not fit maxCostUsd', () => {
    const needs = { ...base, inputTokens: 16_561_000, unboundedTokens: 16_560_000 };
    const limits = attemptLimits(model, needs, { costUsd: 0.5, timeMs: Number.POSITIVE_INFINITY }, speed);
    expect(limits).toMatchObject({ ok: false, reason: 'cost' });
  });
});

describe('attempt limits of a request that marks cache breakpoints', () => {
  it('prices its input at the cache-write price, which a provider may bill all of it at', () => {
    const writes = simModel('writes', {
      priceUsdPerMTok: { input: 10, output: 20, cacheWrite: 12.5 },
      contextTokens: 100_000,
    });
    const plain = attemptLimits(writes, base, unlimited, speed);
    const cached = attemptLimits(writes, { ...base, cacheWrites: true }, unlimited, speed);
    if (!plain.ok || !cached.ok) throw new Error('both fit');
    // 1,000 input tokens at $10 or $12.50 per million, 100 output at $20.
    expect(plain.worstCaseUsd).toBeCloseTo(0.01 + 0.002, 12);
    expect(cached.worstCaseUsd).toBeCloseTo(0.0125 + 0.002, 12);
  });
});
