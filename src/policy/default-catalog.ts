import type { Catalog } from './catalog';

/**
 * The embedded default: Valve's built-in simulator models, with distinct prices, latencies, quality
 * and regions, so routing, budgets and fallback can be seen working on a fresh machine with no network.
 */
export const defaultCatalog: Catalog = {
  providers: [{ id: 'sim', kind: 'sim' }],
  models: [
    {
      provider: 'sim',
      model: 'fast',
      regions: ['us', 'eu'],
      priceUsdPerMTok: { input: 0.1, output: 0.4 },
      quality: 55,
      latency: { ttftMsP50: 40, ttftMsP90: 80, outputTokensPerSec: 400 },
      contextTokens: 32_000,
      maxOutputTokens: 4096,
      capabilities: { tools: true, json: 'native', reasoning: false, base64Data: false },
      maxPrivacy: 'internal',
      simulate: { latencyMs: 5 },
    },
    {
      provider: 'sim',
      model: 'balanced',
      regions: ['eu'],
      priceUsdPerMTok: { input: 1, output: 4 },
      quality: 72,
      latency: { ttftMsP50: 120, ttftMsP90: 250, outputTokensPerSec: 150 },
      contextTokens: 128_000,
      maxOutputTokens: 8192,
      capabilities: { tools: true, json: 'native', reasoning: false, base64Data: true },
      maxPrivacy: 'confidential',
      simulate: { latencyMs: 15 },
    },
    {
      provider: 'sim',
      model: 'deep',
      regions: ['us'],
      priceUsdPerMTok: { input: 5, output: 20 },
      quality: 88,
      latency: { ttftMsP50: 400, ttftMsP90: 900, outputTokensPerSec: 60 },
      contextTokens: 200_000,
      maxOutputTokens: 16_384,
      capabilities: { tools: true, json: 'native', reasoning: true, base64Data: true },
      maxPrivacy: 'restricted',
      simulate: { latencyMs: 40 },
    },
  ],
};
