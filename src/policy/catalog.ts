import { z } from 'zod';
import { inputModalities } from '../contracts/media-part';
import {
  messageLevelSchema,
  promptLayouts,
  promptModes,
  reasoningEfforts,
} from '../contracts/reason-request';
import { modelErrorKinds } from '../model/model-error';
import { providerKinds } from '../model/provider-kind';
import {
  providerKeyNamePattern,
  providerKeyNameProblem,
  providerKeyNameRule,
  valveOwnNames,
} from './provider-key-name';

// The model catalog (README "Choosing a model"): providers and the models they serve, validated on load.

/** Headers that carry a provider key: never in the catalog (a plain variable), only through `apiKeyEnv`. */
const credentialHeaders = new Set(['authorization', 'x-api-key', 'x-goog-api-key', 'api-key']);

export const catalogProviderSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/),
  kind: z.enum(providerKinds),
  baseUrl: z.url().optional(),
  /**
   * The name of the secret holding this provider's key; a provider whose key is unset is `not_configured`.
   * OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY or PROVIDER_…, and never one of Valve's own secrets.
   */
  apiKeyEnv: z
    .string()
    .regex(providerKeyNamePattern, providerKeyNameRule)
    .refine((name) => !valveOwnNames.has(name), {
      error: (issue) => providerKeyNameProblem(String(issue.input)),
    })
    .optional(),
  /** The Worker binding this provider needs (Workers AI: `AI`); a provider whose binding is absent is `not_configured`. */
  binding: z
    .string()
    .regex(/^[A-Z][A-Z0-9_]*$/)
    .optional(),
  /**
   * Extra request headers sent with every call to this provider, over the adapter's own (for example
   * OpenRouter's `HTTP-Referer`, or a pinned `anthropic-version`). Not for keys: those come from `apiKeyEnv`.
   */
  headers: z
    .record(
      z
        .string()
        .regex(/^[A-Za-z0-9-]{1,64}$/)
        .refine(
          (name) => !credentialHeaders.has(name.toLowerCase()),
          'keys come from apiKeyEnv, not headers',
        ),
      z.string().max(1024),
    )
    .optional(),
  /** A stand-in used only while no other provider of the catalog is configured (the embedded simulator). */
  demo: z.boolean().optional(),
});
export type CatalogProvider = z.infer<typeof catalogProviderSchema>;

/** The simulator's scripted behaviour, for demos and tests of routing, budgets and failover. */
export const simulateSchema = z.strictObject({
  /** Delay before the answer (JSON) or the first delta (stream). */
  latencyMs: z.number().int().min(0).max(600_000).optional(),
  /** Delay between streamed deltas. */
  interChunkMs: z.number().int().min(0).max(60_000).optional(),
  /** Fail calls with this ModelError kind (every call, unless `failTimes` is set). */
  failWith: z.enum(modelErrorKinds).optional(),
  /** Fail only the first N calls this isolate makes to the model, then answer (a transient fault). */
  failTimes: z.number().int().min(1).max(1000).optional(),
  /** The `retry_after_ms` a scripted failure carries, as a provider's Retry-After would. */
  retryAfterMs: z.number().int().min(0).max(600_000).optional(),
  /** Never answer (until the caller's deadline aborts the call). */
  hang: z.boolean().optional(),
  /** Fail a stream with `network` after this many deltas (a connection cut mid-answer). */
  failAfterChunks: z.number().int().min(0).max(10_000).optional(),
  /** Answer JSON that breaks the schema: always, or until Valve's repair feedback arrives. */
  invalidJson: z.enum(['always', 'until_feedback']).optional(),
});
export type Simulate = z.infer<typeof simulateSchema>;

/**
 * How a model that reasons is told how much to think (docs/policy.md#reasoning): `effort`, a level
 * (OpenAI `reasoning_effort`, Anthropic `output_config.effort`); `level`, Gemini 3's `thinkingLevel`;
 * `budget`, a token budget (Anthropic `thinking.budget_tokens`, Gemini 2.5 `thinkingBudget`); `none`,
 * it reasons but takes no control.
 */
export const reasoningControls = ['effort', 'level', 'budget', 'none'] as const;
export type ReasoningControl = (typeof reasoningControls)[number];

export const catalogReasoningSchema = z.strictObject({
  control: z.enum(reasoningControls),
  /** The effort levels an `effort` or `level` model takes; all four when absent. */
  levels: z.array(z.enum(reasoningEfforts)).min(1).optional(),
  /** The least and most thinking budget a `budget` model takes (Anthropic: at least 1,024). */
  minBudgetTokens: z.number().int().min(0).optional(),
  maxBudgetTokens: z.number().int().positive().optional(),
  /** Whether thinking can be turned off (`reasoning.enabled: false`). */
  canDisable: z.boolean(),
  /** Whether the model thinks when not told to. */
  defaultOn: z.boolean(),
  /** Thinking is billed at the output price and counted in the output tokens; Valve plans it so. */
  billedAsOutput: z.literal(true),
});
export type CatalogReasoning = z.infer<typeof catalogReasoningSchema>;

export const catalogModelSchema = z.strictObject({
  provider: z.string().min(1),
  model: z.string().min(1),
  /** Where the provider processes the request (its endpoint), not where Valve runs. */
  regions: z.array(z.string().min(1)).min(1),
  priceUsdPerMTok: z.strictObject({
    input: z.number().min(0),
    output: z.number().min(0),
    cacheRead: z.number().min(0).optional(),
    /** Input tokens written to the provider's prompt cache (Anthropic: 5-minute writes, 1.25× input). */
    cacheWrite: z.number().min(0).optional(),
  }),
  quality: z.number().min(0).max(100),
  latency: z.strictObject({
    ttftMsP50: z.number().min(0),
    ttftMsP90: z.number().min(0),
    outputTokensPerSec: z.number().positive(),
  }),
  contextTokens: z.number().int().positive(),
  maxOutputTokens: z.number().int().positive(),
  capabilities: z.strictObject({
    tools: z.boolean(),
    json: z.enum(['native', 'tool', 'none']),
    reasoning: z.boolean(),
    base64Data: z.boolean(),
  }),
  /** How the model reasons, when `capabilities.reasoning` is true; without it, it takes no control. */
  reasoning: catalogReasoningSchema.optional(),
  /**
   * What the model reads besides text: `image`, `audio`, `pdf`. A request carrying media is planned
   * only onto models that read every modality it carries. Default `["text"]`.
   */
  inputModalities: z
    .array(z.enum(inputModalities))
    .min(1)
    .refine((list) => list.includes('text'), 'every model reads text: list "text"')
    .optional(),
  /** The most sensitive privacy level the operator allows to be sent to this model. */
  maxPrivacy: messageLevelSchema,
  /** The rendering mode this model reads best (docs/trust.md); default `tags`. */
  promptMode: z.enum(promptModes).optional(),
  /** Where this model reads the caller's instructions best (docs/trust.md); default by provider (defaultLayout). */
  promptLayout: z.enum(promptLayouts).optional(),
  /**
   * Other names a door's `model` may call this model by (Claude Code sends `claude-sonnet-4-5-…`):
   * exact names, or patterns where `*` stands for any run of characters (`claude-sonnet-4-*`). A name
   * holds no `/`, so it never reads as a catalog id; the first model of the catalog a name matches
   * answers it (docs/anthropic-door.md "Which model answers").
   */
  answersTo: z
    .array(
      z
        .string()
        .regex(/^[A-Za-z0-9._:@*-]{1,128}$/, 'must be 1–128 characters of A–Z, a–z, 0–9, ., _, :, @, - or *')
        .refine((name) => name !== 'auto', '"auto" is the policy’s choice and cannot be a model’s name'),
    )
    .max(64)
    .optional(),
  simulate: simulateSchema.optional(),
  /** Where the price and limits were read, and when. */
  source: z.string().optional(),
});
export type CatalogModel = z.infer<typeof catalogModelSchema>;

export const catalogSchema = z
  .strictObject({
    providers: z.array(catalogProviderSchema).min(1),
    models: z.array(catalogModelSchema).min(1),
  })
  .superRefine((catalog, ctx) => {
    const ids = new Set<string>();
    catalog.providers.forEach((provider, index) => {
      if (ids.has(provider.id)) {
        ctx.addIssue({ code: 'custom', path: ['providers', index, 'id'], message: 'duplicate provider id' });
      }
      ids.add(provider.id);
    });
    const models = new Set<string>();
    catalog.models.forEach((model, index) => {
      if (!ids.has(model.provider)) {
        ctx.addIssue({
          code: 'custom',
          path: ['models', index, 'provider'],
          message: 'names no listed provider',
        });
      }
      const key = `${model.provider}/${model.model}`;
      if (models.has(key)) {
        ctx.addIssue({ code: 'custom', path: ['models', index, 'model'], message: 'duplicate model' });
      }
      models.add(key);
      if (model.reasoning && !model.capabilities.reasoning) {
        ctx.addIssue({
          code: 'custom',
          path: ['models', index, 'reasoning'],
          message: 'describes reasoning for a model whose capabilities.reasoning is false',
        });
      }
    });
  });
export type Catalog = z.infer<typeof catalogSchema>;
