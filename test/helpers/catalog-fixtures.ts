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

/**
 * A catalog of sim models, with `providers` for those that need more than a name: a provider a model
 * names and `providers` does not list is a simulator of that name (a provider of its own, so a failure
 * that opens its circuit holds out no other test's models).
 */
export function catalogOf(models: CatalogModel[], providers: Catalog['providers'] = []): Catalog {
  const listed = new Set(['sim', ...providers.map((provider) => provider.id)]);
  const named = [...new Set(models.map((model) => model.provider))].filter((id) => !listed.has(id));
  return {
    providers: [
      { id: 'sim', kind: 'sim' },
      ...providers,
      ...named.map((id) => ({ id, kind: 'sim' as const })),
    ],
    models,
  };
}
