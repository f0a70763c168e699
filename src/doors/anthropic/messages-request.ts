import { z } from 'zod';
import { valveOptionsSchema } from '../valve-options';

// The Messages API request body as Valve accepts it (docs/anthropic-door.md has the field table).
// Top-level fields are strict, as Anthropic's are: a field Valve does not know is a 400 naming it.
// Content blocks and tools are read loosely here and checked one by one in the mapper
// (content-blocks.ts, tools-of.ts), so that a bad block gets a 400 naming exactly it.

const blockSchema = z.looseObject({ type: z.string() });
const contentSchema = z.union([z.string(), z.array(blockSchema)]);

export const cacheControlSchema = z.strictObject({
  type: z.literal('ephemeral'),
  ttl: z.enum(['5m', '1h']).optional(),
});

export const textBlockSchema = z.strictObject({
  type: z.literal('text'),
  text: z.string(),
  cache_control: cacheControlSchema.nullish(),
  citations: z.array(z.unknown()).nullish(),
});

export const messageParamSchema = z.strictObject({
  role: z.enum(['user', 'assistant', 'system']),
  content: contentSchema,
});
export type MessageParam = z.infer<typeof messageParamSchema>;

const parallel = { disable_parallel_tool_use: z.boolean().optional() };

export const toolChoiceParamSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('auto'), ...parallel }),
  z.strictObject({ type: z.literal('any'), ...parallel }),
  z.strictObject({ type: z.literal('tool'), name: z.string().min(1), ...parallel }),
  z.strictObject({ type: z.literal('none') }),
]);

const display = z.enum(['summarized', 'omitted']).nullish();

export const thinkingParamSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('enabled'), budget_tokens: z.number().int().min(1), display }),
  z.strictObject({ type: z.literal('adaptive'), display }),
  z.strictObject({ type: z.literal('disabled') }),
]);

export const efforts = ['low', 'medium', 'high', 'xhigh', 'max'] as const;

/** What the Messages API and count_tokens share: the conversation, tools and the model's settings. */
const sharedFields = {
  model: z.string().min(1),
  messages: z.array(messageParamSchema).min(1),
  system: z.union([z.string(), z.array(textBlockSchema)]).optional(),
  tools: z.array(z.looseObject({ type: z.string().optional() })).optional(),
  tool_choice: toolChoiceParamSchema.optional(),
  thinking: thinkingParamSchema.optional(),
  output_config: z
    .strictObject({
      effort: z.enum(efforts).nullish(),
      format: z
        .strictObject({ type: z.literal('json_schema'), schema: z.record(z.string(), z.unknown()) })
        .nullish(),
    })
    .optional(),
  /** Automatic prompt caching: a hint, accepted and not applied by Valve itself. */
  cache_control: cacheControlSchema.nullish(),
  valve: valveOptionsSchema.optional(),
};

/** Fields with no effect Valve can give, accepted and named in an `anthropic.param_ignored` warning when set. */
const ignoredFields = {
  metadata: z.strictObject({ user_id: z.string().nullish() }).optional(),
  service_tier: z.enum(['auto', 'standard_only']).optional(),
  inference_geo: z.string().nullish(),
  speed: z.enum(['standard', 'fast']).nullish(),
  top_k: z.number().int().min(0).optional(),
  context_management: z.unknown().optional(),
  diagnostics: z.unknown().optional(),
  user_profile_id: z.string().optional(),
  workspace_id: z.string().optional(),
};

/** Fields that ask for a service Valve does not run: accepted only empty or null, else a 400 naming them. */
const refusedFields = {
  container: z.null({ error: 'Valve runs no code containers: leave container out' }).optional(),
  mcp_servers: z
    .array(z.unknown())
    .max(0, 'Valve connects to no MCP servers: leave mcp_servers out (run the tools on the client)')
    .optional(),
};

export const messagesRequestSchema = z.strictObject({
  ...sharedFields,
  max_tokens: z.number().int().min(1),
  stop_sequences: z.array(z.string()).optional(),
  stream: z.boolean().optional(),
  temperature: z.number().min(0).max(1).optional(),
  top_p: z.number().min(0).max(1).optional(),
  ...ignoredFields,
  ...refusedFields,
});
export type MessagesRequest = z.infer<typeof messagesRequestSchema>;

/** POST /v1/messages/count_tokens: the same conversation and tools, without the sampling settings. */
export const countTokensRequestSchema = z.strictObject({
  ...sharedFields,
  ...refusedFields,
  context_management: z.unknown().optional(),
});
export type CountTokensRequest = z.infer<typeof countTokensRequestSchema>;
