import { bench, describe } from 'vitest';
import type { Catalog, CatalogModel } from '../../src/policy/catalog';
import { planRequest } from '../../src/policy/plan-request';
import type { Needs } from '../../src/policy/plan-types';

// Planning against a 200-model catalog (target: under 0.2 ms median), beside a baseline that does the
// least any planner must: filter the same array by region and sort it by quality. Read as a ratio.

const regions = ['us', 'eu', 'ap'];
const levels = ['public', 'internal', 'confidential', 'restricted'] as const;

const models: CatalogModel[] = Array.from({ length: 200 }, (_, i) => ({
  provider: `p${i % 8}`,
  model: `model-${i}`,
  regions: [regions[i % 3] as string, regions[(i + 1) % 3] as string],
  priceUsdPerMTok: { input: 0.1 + (i % 17) * 0.3, output: 0.4 + (i % 13) * 1.1 },
  quality: 30 + ((i * 37) % 70),
  latency: {
    ttftMsP50: 50 + ((i * 11) % 900),
    ttftMsP90: 120 + ((i * 13) % 2000),
    outputTokensPerSec: 40 + (i % 9) * 30,
  },
  contextTokens: 8000 * (1 + (i % 16)),
  maxOutputTokens: 4096,
  capabilities: {
    tools: i % 5 !== 0,
    json: i % 7 === 0 ? 'none' : 'native',
    reasoning: i % 2 === 0,
    base64Data: true,
  },
  maxPrivacy: levels[i % 4] as (typeof levels)[number],
}));
const catalog: Catalog = {
  providers: Array.from({ length: 8 }, (_, i) => ({ id: `p${i}`, kind: 'openai' as const })),
  models,
};
const needs: Needs = {
  tools: true,
  json: true,
  privacy: 'internal',
  inputTokens: 3000,
  maxOutputTokens: 800,
};
const left = { costUsd: 0.05, timeMs: 8000 };
const options = { time: 3000, warmupTime: 500 };

describe('plan a request against 200 models', () => {
  bench(
    'planRequest (eligibility, limits, ranking, trace)',
    () => {
      planRequest({
        policy: { prefer: 'cost', regions: ['eu'], maxCostUsd: 0.05, maxLatencyMs: 8000 },
        needs,
        catalog,
        notConfigured: () => undefined,
        left,
      });
    },
    options,
  );

  bench(
    'baseline: filter by region and sort by quality',
    () => {
      models.filter((m) => m.regions.includes('eu')).sort((a, b) => b.quality - a.quality);
    },
    options,
  );
});
