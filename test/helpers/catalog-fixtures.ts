import type { Catalog, CatalogModel } from '../../src/policy/catalog';

/** A sim catalog entry with plain figures, overridden per test. */
export function simModel(model: string, overrides: Partial<CatalogModel> = {}): CatalogModel {
  return {
    provider: 'sim',
    model,
    regions: ['us', 'eu'],
    priceUsdPerMTok: { input: 1, output: 2 },
    quality: 50,
    latency: { ttftMsP50: 20, ttftMsP90: 40, outputTokensPerSec: 1000 },
    contextTokens: 100_000,
    maxOutputTokens: 4096,
    capabilities: { tools: true, json: 'native', reasoning: false, base64Data: false },
    maxPrivacy: 'restricted',
    simulate: { latencyMs: 1 },
    ...overrides,
  };
}

/** A catalog of sim models (plus any other providers the models name). */
export function catalogOf(models: CatalogModel[], providers: Catalog['providers'] = []): Catalog {
  return { providers: [{ id: 'sim', kind: 'sim' }, ...providers], models };
}
