import type { Catalog, CatalogModel } from './catalog';

// The embedded default catalog. With no provider key configured, only Valve's simulator models are
// eligible, with distinct prices, latencies, quality and regions, so routing, budgets and fallback can
// be seen working on a fresh machine with no network. The real entries are present but excluded as
// `not_configured` until their key (or the Workers AI binding) exists; once one is, the simulator
// (a `demo` provider) steps aside.
//
// Prices are USD per million tokens, standard tier, as published; each entry's `source` says where and
// when they were read, and which figures could not be confirmed. `quality` is Valve's rough 0–100
// ranking for `prefer: "quality"`, not a published benchmark; `latency` figures of real models are
// starting guesses that observed health replaces after a few calls. Real models are allowed data up to
// `internal` by default: an operator who has a data agreement with a provider raises `maxPrivacy`.

const read = 'read 2026-12-01';

const simulator: CatalogModel[] = [
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
    source: 'Valve simulator: invented figures',
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
    inputModalities: ['text', 'image', 'pdf'],
    maxPrivacy: 'confidential',
    simulate: { latencyMs: 15 },
    source: 'Valve simulator: invented figures',
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
    inputModalities: ['text', 'image', 'audio', 'pdf'],
    maxPrivacy: 'restricted',
    simulate: { latencyMs: 40 },
    source: 'Valve simulator: invented figures',
  },
];

const real: CatalogModel[] = [
  {
    provider: 'openai',
    model: 'gpt-5.4-mini',
    regions: ['us'],
    priceUsdPerMTok: { input: 0.75, output: 4.5 },
    quality: 80,
    latency: { ttftMsP50: 700, ttftMsP90: 2000, outputTokensPerSec: 80 },
    contextTokens: 400_000,
    maxOutputTokens: 128_000,
    capabilities: { tools: true, json: 'native', reasoning: true, base64Data: true },
    inputModalities: ['text', 'image', 'pdf'],
    maxPrivacy: 'internal',
    source: `$0.75/$4.50, 400K context, 128K output: https://vercel.com/ai-gateway/models/openai/gpt-5.4-mini (which cites https://developers.openai.com/api/docs/pricing), matching https://docs.venice.ai/models/gpt-5-4-mini; ${read}. Not confirmed on openai.com itself. Cached-input price not confirmed, so cached input is billed at the input price here (over-estimates). Region: api.openai.com's processing location is not stated in the sources read; "us" is an assumption.`,
  },
  {
    provider: 'anthropic',
    model: 'claude-sonnet-5',
    regions: ['global'],
    priceUsdPerMTok: { input: 2, output: 10, cacheRead: 0.2 },
    quality: 90,
    latency: { ttftMsP50: 900, ttftMsP90: 2500, outputTokensPerSec: 60 },
    contextTokens: 1_000_000,
    maxOutputTokens: 128_000,
    capabilities: { tools: true, json: 'tool', reasoning: true, base64Data: true },
    inputModalities: ['text', 'image', 'pdf'],
    maxPrivacy: 'internal',
    source: `$2/$10, cache read $0.20, 1M context, 128K output: https://platform.claude.com/docs/zh-CN/models/sonnet-5/overview (Anthropic's model page), ${read}; that page's Japanese edition marks it legacy in favour of Sonnet 5.5, whose price was not confirmed. Region "global": Anthropic's standard routing (inference_geo unset).`,
  },
  {
    provider: 'anthropic',
    model: 'claude-haiku-4-5',
    regions: ['global'],
    priceUsdPerMTok: { input: 1, output: 5 },
    quality: 74,
    latency: { ttftMsP50: 500, ttftMsP90: 1400, outputTokensPerSec: 90 },
    contextTokens: 200_000,
    maxOutputTokens: 64_000,
    capabilities: { tools: true, json: 'tool', reasoning: true, base64Data: true },
    inputModalities: ['text', 'image', 'pdf'],
    maxPrivacy: 'internal',
    source: `$1/$5, 200K context, 64K output: the comparison table of https://platform.claude.com/docs/zh-CN/models/sonnet-5/overview, ${read}. Cache-read price not confirmed there, so cached input is billed at the input price here. Region "global": standard routing.`,
  },
  {
    provider: 'gemini',
    model: 'gemini-2.5-flash',
    regions: ['global'],
    priceUsdPerMTok: { input: 0.3, output: 2.5 },
    quality: 76,
    latency: { ttftMsP50: 600, ttftMsP90: 1800, outputTokensPerSec: 150 },
    contextTokens: 1_048_576,
    maxOutputTokens: 65_536,
    capabilities: { tools: true, json: 'native', reasoning: true, base64Data: true },
    inputModalities: ['text', 'image', 'audio', 'pdf'],
    maxPrivacy: 'internal',
    source: `$0.30/$2.50 (output includes thinking tokens): https://openrouter.ai/blog/gemini-25-flash-api-pricing-quickstart-provider-comparison and https://deploybase.ai/articles/gemini-2.5-pricing, both citing https://ai.google.dev/gemini-api/docs/pricing, ${read}; not confirmed on ai.google.dev itself. 1M context from the same sources; the 65,536 output limit was not confirmed in the sources read. Region "global": the Gemini API does not pin processing to a region.`,
  },
  {
    provider: 'workers-ai',
    model: '@cf/meta/llama-3.3-70b-instruct-fp8-fast',
    regions: ['global'],
    priceUsdPerMTok: { input: 0.293, output: 2.253 },
    quality: 68,
    latency: { ttftMsP50: 400, ttftMsP90: 1200, outputTokensPerSec: 60 },
    contextTokens: 24_000,
    maxOutputTokens: 4096,
    capabilities: { tools: true, json: 'native', reasoning: false, base64Data: false },
    maxPrivacy: 'internal',
    source: `$0.293/$2.253 (billed as 26,668/204,805 neurons at $0.011 per 1,000): https://github.com/cloudflare/cloudflare-docs/blob/production/src/content/docs/workers-ai/platform/pricing.mdx, ${read}. The 24,000-token context and 4,096-token output limit were NOT confirmed in the sources read: verify on the model's page before relying on them. Region "global": Cloudflare's network.`,
  },
  {
    provider: 'workers-ai',
    model: '@cf/meta/llama-4-scout-17b-16e-instruct',
    regions: ['global'],
    priceUsdPerMTok: { input: 0.27, output: 0.85 },
    quality: 66,
    latency: { ttftMsP50: 500, ttftMsP90: 1500, outputTokensPerSec: 60 },
    contextTokens: 131_000,
    maxOutputTokens: 4096,
    capabilities: { tools: true, json: 'native', reasoning: false, base64Data: false },
    inputModalities: ['text', 'image'],
    maxPrivacy: 'internal',
    source: `$0.27/$0.85 (24,545/77,273 neurons per M), 131,000-token context, images as data URIs only: https://developers.cloudflare.com/workers-ai/platform/pricing/ and the model's schema in https://github.com/cloudflare/cloudflare-docs/blob/production/src/content/workers-ai-models/llama-4-scout-17b-16e-instruct.json, read 2026-12-04. No maximum output is stated (the default max_tokens is 256); 4,096 is a placeholder. Region "global".`,
  },
  {
    provider: 'workers-ai',
    model: '@cf/meta/llama-3.1-8b-instruct-fp8-fast',
    regions: ['global'],
    priceUsdPerMTok: { input: 0.045, output: 0.384 },
    quality: 45,
    latency: { ttftMsP50: 250, ttftMsP90: 800, outputTokensPerSec: 120 },
    contextTokens: 8_000,
    maxOutputTokens: 2048,
    capabilities: { tools: false, json: 'none', reasoning: false, base64Data: false },
    maxPrivacy: 'internal',
    source: `$0.045/$0.384 (4,119/34,868 neurons): https://github.com/cloudflare/cloudflare-docs/blob/production/src/content/docs/workers-ai/platform/pricing.mdx, ${read}. Context and output limits NOT confirmed: 8,000/2,048 are deliberately low placeholders. Region "global".`,
  },
];

export const defaultCatalog: Catalog = {
  providers: [
    { id: 'sim', kind: 'sim', demo: true },
    { id: 'openai', kind: 'openai', baseUrl: 'https://api.openai.com/v1', apiKeyEnv: 'OPENAI_API_KEY' },
    {
      id: 'anthropic',
      kind: 'anthropic',
      baseUrl: 'https://api.anthropic.com/v1',
      apiKeyEnv: 'ANTHROPIC_API_KEY',
    },
    {
      id: 'gemini',
      kind: 'gemini',
      baseUrl: 'https://generativelanguage.googleapis.com/v1beta',
      apiKeyEnv: 'GEMINI_API_KEY',
    },
    { id: 'workers-ai', kind: 'workers-ai', binding: 'AI' },
  ],
  models: [...simulator, ...real],
};
