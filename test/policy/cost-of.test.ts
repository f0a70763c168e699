import { describe, expect, it } from 'vitest';
import type { CatalogModel } from '../../src/policy/catalog';
import { costOf } from '../../src/policy/cost-of';
import { defaultCatalog } from '../../src/policy/default-catalog';

const base = defaultCatalog.models[0] as CatalogModel;
const priced = (priceUsdPerMTok: CatalogModel['priceUsdPerMTok']): CatalogModel => ({
  ...base,
  priceUsdPerMTok,
});

describe('costOf', () => {
  it('bills cached input at the cache-read price, fresh input and output at theirs', () => {
    const model = priced({ input: 3, output: 15, cacheRead: 0.3 });
    const usage = { input_tokens: 1_000_000, cache_read_tokens: 600_000, output_tokens: 100_000 };
    // 400k fresh × $3 + 600k cached × $0.30 + 100k out × $15 = 1.20 + 0.18 + 1.50
    expect(costOf(usage, model)).toBeCloseTo(2.88, 10);
  });

  it('bills cached input at the input price when no cache-read price is listed', () => {
    const model = priced({ input: 3, output: 15 });
    expect(
      costOf({ input_tokens: 1_000_000, cache_read_tokens: 600_000, output_tokens: 0 }, model),
    ).toBeCloseTo(3, 10);
  });

  it('never counts more cached tokens than input tokens', () => {
    const model = priced({ input: 2, output: 10, cacheRead: 1 });
    expect(
      costOf({ input_tokens: 1_000_000, cache_read_tokens: 5_000_000, output_tokens: 0 }, model),
    ).toBeCloseTo(1, 10);
  });

  it('bills input written to the cache at the cache-write price when listed, at the input price when not', () => {
    // Anthropic's usage: 200k fresh, 300k read from the cache, 500k written to it (1.25× input).
    const usage = {
      input_tokens: 1_000_000,
      cache_read_tokens: 300_000,
      cache_write_tokens: 500_000,
      output_tokens: 0,
    };
    // 200k × $3 + 300k × $0.30 + 500k × $3.75 = 0.60 + 0.09 + 1.875
    expect(costOf(usage, priced({ input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }))).toBeCloseTo(
      2.565,
      10,
    );
    // 200k × $3 + 300k × $0.30 + 500k × $3 = 0.60 + 0.09 + 1.50
    expect(costOf(usage, priced({ input: 3, output: 15, cacheRead: 0.3 }))).toBeCloseTo(2.19, 10);
  });
});
