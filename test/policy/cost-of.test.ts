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
});
