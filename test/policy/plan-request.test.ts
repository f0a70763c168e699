import { describe, expect, it } from 'vitest';
import type { ModelPolicy } from '../../src/contracts/reason-request';
import type { Catalog, CatalogModel } from '../../src/policy/catalog';
import { configuredProviders } from '../../src/policy/configured-providers';
import { defaultCatalog } from '../../src/policy/default-catalog';
import { planRequest } from '../../src/policy/plan-request';
import type { ExclusionReason, HealthView, Needs } from '../../src/policy/plan-types';
import { exclusionReasons, noHealth } from '../../src/policy/plan-types';
import { catalogOf, simModel } from '../helpers/catalog-fixtures';

const needs: Needs = { tools: false, json: false, privacy: 'public', inputTokens: 1000 };
const unbounded = { costUsd: Number.POSITIVE_INFINITY, timeMs: Number.POSITIVE_INFINITY };

interface Case {
  reason: ExclusionReason;
  says: string;
  model?: Partial<CatalogModel>;
  policy?: ModelPolicy;
  needs?: Partial<Needs>;
  left?: { costUsd: number; timeMs: number };
  catalog?: (catalog: Catalog) => Catalog;
  health?: HealthView;
  detail: RegExp;
}

const cases: Case[] = [
  {
    reason: 'pinned',
    says: 'is not the pinned model while allowFallback is false',
    policy: { pinned: { provider: 'sim', model: 'other' }, allowFallback: false },
    detail: /not the pinned model sim\/other/,
  },
  {
    reason: 'region',
    says: 'serves none of the allowed regions',
    policy: { regions: ['ap'] },
    detail: /serves us, eu only/,
  },
  {
    reason: 'privacy',
    says: 'is allowed less sensitive data than the context holds',
    model: { maxPrivacy: 'internal' },
    needs: { privacy: 'confidential' },
    detail: /allowed up to internal, the request is confidential/,
  },
  {
    reason: 'capability',
    says: 'cannot call tools the request lists',
    model: { capabilities: { tools: false, json: 'native', reasoning: false, base64Data: false } },
    needs: { tools: true },
    detail: /does not support tools/,
  },
  {
    reason: 'capability',
    says: 'cannot produce JSON the request asks for',
    model: { capabilities: { tools: true, json: 'none', reasoning: false, base64Data: false } },
    needs: { json: true },
    detail: /does not support JSON output/,
  },
  {
    reason: 'capability',
    says: 'cannot be made to call a tool when toolChoice forces one',
    catalog: (c) => ({ ...c, providers: [{ id: 'sim', kind: 'workers-ai' }] }),
    needs: { tools: true, forcedToolCall: true },
    detail: /cannot be made to call a tool, and toolChoice requires a call/,
  },
  {
    reason: 'context_window',
    says: 'cannot fit the input in its window',
    model: { contextTokens: 1000 },
    detail: /about 1000 input tokens .* 1000-token window/,
  },
  {
    reason: 'cost',
    says: 'cannot afford a useful answer within maxCostUsd',
    left: { costUsd: 0.001, timeMs: Number.POSITIVE_INFINITY },
    detail: /input alone costs about \$0\.00100 .* under the useful floor of 16/,
  },
  {
    reason: 'latency',
    says: 'cannot answer within maxLatencyMs at its p90',
    model: { latency: { ttftMsP50: 500, ttftMsP90: 2000, outputTokensPerSec: 100 } },
    left: { costUsd: Number.POSITIVE_INFINITY, timeMs: 1000 },
    detail: /p90 first token 2000 ms \+ 256 tokens at 100\/s = 4560 ms, 1000 ms left/,
  },
  {
    reason: 'circuit_open',
    says: 'has an open circuit',
    health: { circuit: () => 'open', observedSpeed: () => undefined },
    detail: /circuit is open/,
  },
  {
    reason: 'modality_unsupported',
    says: 'does not read a modality the request’s media carry',
    model: { inputModalities: ['text', 'image'] },
    needs: {
      media: {
        modalities: ['image', 'pdf'],
        sources: [{ modality: 'pdf', kind: 'base64', mimeType: 'application/pdf' }],
      },
    },
    detail: /^does not read pdf \(it reads text, image\)$/,
  },
  {
    reason: 'modality_unsupported',
    says: 'cannot take a part from its source',
    model: { inputModalities: ['text', 'image'] },
    needs: {
      media: { modalities: ['image'], sources: [{ modality: 'image', kind: 'url', mimeType: 'image/png' }] },
    },
    detail: /^its provider takes no image from a URL$/,
  },
  {
    reason: 'modality_unsupported',
    says: 'is not the provider whose store holds a file id',
    model: { inputModalities: ['text', 'image'] },
    needs: {
      media: {
        modalities: ['image'],
        sources: [{ modality: 'image', kind: 'fileId', mimeType: 'image/png', provider: 'openai' }],
      },
    },
    detail: /^the image file id belongs to provider openai$/,
  },
  {
    reason: 'modality_unsupported',
    says: 'belongs to a provider that does not take the part’s MIME type',
    model: { inputModalities: ['text', 'image'] },
    catalog: (c) => ({ ...c, providers: [{ id: 'sim', kind: 'gemini' }] }),
    needs: {
      media: {
        modalities: ['image'],
        sources: [{ modality: 'image', kind: 'base64', mimeType: 'image/gif' }],
      },
    },
    detail: /^its provider takes no image\/gif$/,
  },
  {
    reason: 'not_configured',
    says: 'belongs to a provider without its key',
    catalog: (c) => ({ ...c, providers: [{ id: 'sim', kind: 'sim', apiKeyEnv: 'PROVIDER_SIM_KEY' }] }),
    detail: /set the PROVIDER_SIM_KEY secret/,
  },
];

describe('planRequest exclusions', () => {
  it('keeps a model that cannot force a tool call when the call is not forced', () => {
    const catalog = {
      ...catalogOf([simModel('m')]),
      providers: [{ id: 'sim', kind: 'workers-ai' as const }],
    };
    const plan = planRequest({
      policy: {},
      needs: { ...needs, tools: true, forcedToolCall: false },
      catalog,
      notConfigured: configuredProviders(catalog, () => undefined),
      health: noHealth,
      left: unbounded,
    });
    expect(plan.attempts.map((a) => a.model)).toEqual(['m']);
  });

  it.each(cases)('excludes a model that $says ($reason)', (c) => {
    const base = catalogOf([simModel('m', c.model)]);
    const catalog = c.catalog ? c.catalog(base) : base;
    const plan = planRequest({
      policy: c.policy ?? {},
      needs: { ...needs, ...c.needs },
      catalog,
      notConfigured: configuredProviders(catalog, () => undefined),
      health: c.health ?? noHealth,
      left: c.left ?? unbounded,
    });
    expect(plan.attempts).toEqual([]);
    expect(plan.excluded).toHaveLength(1);
    expect(plan.excluded[0]).toMatchObject({ provider: 'sim', model: 'm', reason: c.reason });
    expect(plan.excluded[0]?.detail).toMatch(c.detail);
  });

  it('covers every exclusion reason in the table', () => {
    expect(new Set(cases.map((c) => c.reason))).toEqual(new Set(exclusionReasons));
  });

  it('excludes the simulator once a real provider of the default catalog is configured', () => {
    const lookup = (name: string) => (name === 'OPENAI_API_KEY' ? 'sk-test' : undefined);
    const plan = planRequest({
      policy: {},
      needs,
      catalog: defaultCatalog,
      notConfigured: configuredProviders(defaultCatalog, lookup),
      left: unbounded,
    });
    expect(plan.attempts.map((a) => `${a.provider}/${a.model}`)).toEqual(['openai/gpt-5.4-mini']);
    const sim = plan.excluded.filter((e) => e.provider === 'sim');
    expect(sim.map((e) => e.reason)).toEqual(['not_configured', 'not_configured', 'not_configured']);
    expect(sim[0]?.detail).toMatch(/stand-in/);
  });
});

describe('planRequest ranking', () => {
  // cheap: low quality, cheap, slow; pricey: high quality, dear, fast; middle: in between.
  const catalog = catalogOf([
    simModel('cheap', {
      quality: 40,
      priceUsdPerMTok: { input: 0.1, output: 0.2 },
      latency: { ttftMsP50: 900, ttftMsP90: 1500, outputTokensPerSec: 50 },
    }),
    simModel('pricey', {
      quality: 90,
      priceUsdPerMTok: { input: 10, output: 30 },
      latency: { ttftMsP50: 50, ttftMsP90: 90, outputTokensPerSec: 500 },
    }),
    simModel('middle', {
      quality: 70,
      priceUsdPerMTok: { input: 1, output: 4 },
      latency: { ttftMsP50: 300, ttftMsP90: 600, outputTokensPerSec: 150 },
    }),
  ]);
  const plan = (policy: ModelPolicy) =>
    planRequest({
      policy,
      needs,
      catalog,
      notConfigured: () => undefined,
      left: unbounded,
    }).attempts.map((a) => a.model);

  it.each([
    { prefer: undefined, order: ['pricey', 'middle', 'cheap'] },
    { prefer: 'quality' as const, order: ['pricey', 'middle', 'cheap'] },
    { prefer: 'cost' as const, order: ['cheap', 'middle', 'pricey'] },
    { prefer: 'speed' as const, order: ['pricey', 'middle', 'cheap'] },
  ])('orders by prefer $prefer', ({ prefer, order }) => {
    expect(plan({ prefer })).toEqual(order);
  });

  it('breaks a quality tie by estimated cost, and a cost tie by quality', () => {
    const tied = catalogOf([
      simModel('dear', { quality: 80, priceUsdPerMTok: { input: 2, output: 8 } }),
      simModel('cheap', { quality: 80, priceUsdPerMTok: { input: 1, output: 2 } }),
      simModel('worse', { quality: 60, priceUsdPerMTok: { input: 1, output: 2 } }),
    ]);
    const order = (prefer: 'quality' | 'cost') =>
      planRequest({
        policy: { prefer },
        needs,
        catalog: tied,
        notConfigured: () => undefined,
        left: unbounded,
      }).attempts.map((a) => a.model);
    expect(order('quality')).toEqual(['cheap', 'dear', 'worse']);
    expect(order('cost')).toEqual(['cheap', 'worse', 'dear']);
  });

  it('puts a pinned model first whatever prefer says, and keeps only it without fallback', () => {
    expect(plan({ prefer: 'cost', pinned: { provider: 'sim', model: 'pricey' } })).toEqual([
      'pricey',
      'cheap',
      'middle',
    ]);
    expect(plan({ pinned: { provider: 'sim', model: 'middle' }, allowFallback: false })).toEqual(['middle']);
  });

  it('ranks speed by observed health once it replaces the catalog figures', () => {
    const health: HealthView = {
      circuit: () => 'closed',
      observedSpeed: (_, model) => (model === 'pricey' ? { ttftMsP50: 9000, ttftMsP90: 12000 } : undefined),
    };
    const attempts = planRequest({
      policy: { prefer: 'speed' },
      needs,
      catalog,
      notConfigured: () => undefined,
      health,
      left: unbounded,
    }).attempts;
    expect(attempts.map((a) => a.model)).toEqual(['middle', 'cheap', 'pricey']);
    expect(attempts[2]?.speed.source).toBe('observed');
  });
});

describe('planRequest limits', () => {
  it('gives max_tokens the least of maxOutputTokens, the model maximum and what the money left pays for', () => {
    const catalog = catalogOf([
      simModel('m', { priceUsdPerMTok: { input: 1, output: 10 }, maxOutputTokens: 4096 }),
    ]);
    const run = (maxOutputTokens: number | undefined, costUsd: number) =>
      planRequest({
        policy: {},
        needs: { ...needs, maxOutputTokens },
        catalog,
        notConfigured: () => undefined,
        left: { costUsd, timeMs: Number.POSITIVE_INFINITY },
      }).attempts[0];
    expect(run(100, 1)?.maxTokens).toBe(100);
    expect(run(undefined, 1)?.maxTokens).toBe(4096);
    // $0.002 left: input costs $0.001, leaving $0.001 for output at $10/M: 100 tokens.
    const limited = run(undefined, 0.002);
    expect(limited?.maxTokens).toBe(100);
    expect(limited?.worstCaseUsd).toBeLessThanOrEqual(0.002);
  });
});
