import { z } from 'zod';
import { anthropicCitationSchema } from './citations';

// The Messages API on the wire, loosely. Field names from https://docs.anthropic.com/en/api/messages,
// https://docs.anthropic.com/en/docs/build-with-claude/streaming and .../api/errors.

export const anthropicUsageSchema = z.looseObject({
  input_tokens: z.number().int().nullish(),
  output_tokens: z.number().int().nullish(),
  cache_creation_input_tokens: z.number().int().nullish(),
  cache_read_input_tokens: z.number().int().nullish(),
  /**
   * The thinking inside `output_tokens`, where the API reports it. Not on the reference pages cited
   * above; read as public clients read it from the live API (`usage.output_tokens_details
   * .thinking_tokens`), and absent means Valve reports 0.
   */
  output_tokens_details: z.looseObject({ thinking_tokens: z.number().int().nullish() }).nullish(),
});
export type AnthropicUsage = z.infer<typeof anthropicUsageSchema>;

export const anthropicBlockSchema = z.looseObject({
  type: z.string(),
  text: z.string().optional(),
  id: z.string().optional(),
  name: z.string().optional(),
  input: z.unknown().optional(),
  thinking: z.string().optional(),
  signature: z.string().optional(),
  data: z.string().optional(),
  citations: z.array(anthropicCitationSchema).nullish(),
});
export type AnthropicBlock = z.infer<typeof anthropicBlockSchema>;

export const anthropicResponseSchema = z.looseObject({
  id: z.string().optional(),
  model: z.string().optional(),
  content: z.array(anthropicBlockSchema),
  stop_reason: z.string().nullish(),
  stop_details: z.looseObject({ explanation: z.string().nullish() }).nullish(),
  usage: anthropicUsageSchema.nullish(),
});

export const anthropicErrorBodySchema = z.looseObject({
  error: z.looseObject({
    type: z.string().nullish(),
    message: z.string().nullish(),
    details: z.looseObject({ error_code: z.string().nullish() }).nullish(),
  }),
  request_id: z.string().nullish(),
});

export const anthropicEventSchema = z.looseObject({
  type: z.string(),
  index: z.number().int().optional(),
  message: z
    .looseObject({
      id: z.string().optional(),
      model: z.string().optional(),
      usage: anthropicUsageSchema.nullish(),
    })
    .optional(),
  content_block: anthropicBlockSchema.optional(),
  delta: z
    .looseObject({
      type: z.string().optional(),
      text: z.string().optional(),
      partial_json: z.string().optional(),
      thinking: z.string().optional(),
      signature: z.string().optional(),
      citation: anthropicCitationSchema.optional(),
      stop_reason: z.string().nullish(),
      stop_details: z.looseObject({ explanation: z.string().nullish() }).nullish(),
    })
    .optional(),
  usage: anthropicUsageSchema.nullish(),
});
export type AnthropicEvent = z.infer<typeof anthropicEventSchema>;
