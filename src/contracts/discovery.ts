import { z } from 'zod';
import { inputModalities } from './media-part';
import { messageLevelSchema, reasoningEfforts } from './reason-request';

// GET /v1/models: a discovery document (schema version, protocol version, schema
// URL, providers with capabilities as support levels), plus what Valve's policy reads: prices,
// regions, limits, whether the provider is configured, and live health.

export const supportLevelSchema = z.enum(['full', 'partial', 'none']);

const speedSchema = z.strictObject({
  ttftMsP50: z.number().min(0),
  ttftMsP90: z.number().min(0),
  outputTokensPerSec: z.number().min(0).optional(),
});

/** How a model that reasons is told how much to think (docs/policy.md#reasoning). */
export const discoveryReasoningSchema = z.strictObject({
  control: z.enum(['effort', 'level', 'budget', 'none']),
  levels: z.array(z.enum(reasoningEfforts)).optional(),
  minBudgetTokens: z.number().int().min(0).optional(),
  maxBudgetTokens: z.number().int().min(0).optional(),
  canDisable: z.boolean(),
  defaultOn: z.boolean(),
  billedAsOutput: z.literal(true),
});

export const discoveryModelSchema = z.strictObject({
  model: z.string(),
  capabilities: z.strictObject({
    toolCalling: supportLevelSchema,
    parallelToolCalls: supportLevelSchema,
    reasoning: supportLevelSchema,
    multimodalInput: supportLevelSchema,
    structuredOutput: supportLevelSchema,
    inputModalities: z.array(z.enum(inputModalities)),
    outputModalities: z.array(z.enum(['text'])),
  }),
  /** How a model that reasons is told how much to think; absent when its catalog entry does not say. */
  reasoning: discoveryReasoningSchema.optional(),
  regions: z.array(z.string()),
  priceUsdPerMTok: z.strictObject({
    input: z.number().min(0),
    output: z.number().min(0),
    cacheRead: z.number().min(0).optional(),
    cacheWrite: z.number().min(0).optional(),
  }),
  contextTokens: z.number().int().min(0),
  maxOutputTokens: z.number().int().min(0),
  maxPrivacy: messageLevelSchema,
  quality: z.number().min(0).max(100),
  simulated: z.boolean(),
  latency: z.strictObject({ catalog: speedSchema, observed: speedSchema.nullable() }),
  health: z.strictObject({
    circuit: z.enum(['closed', 'open', 'half_open']),
    samples: z.number().int().min(0),
    errorRate: z.number().min(0).max(1),
    lastErrorKind: z.string().optional(),
  }),
  source: z.string().optional(),
});

export const discoveryProviderSchema = z.strictObject({
  provider: z.string(),
  kind: z.string(),
  configured: z.boolean(),
  notConfiguredReason: z.string().optional(),
  models: z.array(discoveryModelSchema),
});

export const discoverySchema = z.strictObject({
  schemaVersion: z.literal('v1'),
  protocolVersion: z.string(),
  schemaUrl: z.string(),
  providers: z.array(discoveryProviderSchema),
});
export type Discovery = z.infer<typeof discoverySchema>;
