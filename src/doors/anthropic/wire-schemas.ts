import { z } from 'zod';
import { decidedExtensionSchema, doorExtensionSchema } from '../../contracts/door-approvals';

// The door's answers as zod schemas, for the OpenAPI document: Anthropic's own shapes, plus `valve`.

const blockSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({
    type: z.literal('tool_use'),
    id: z.string(),
    name: z.string(),
    input: z.record(z.string(), z.unknown()),
  }),
  z.object({ type: z.literal('thinking'), thinking: z.string(), signature: z.string() }),
  z.object({ type: z.literal('redacted_thinking'), data: z.string() }),
]);

export const messageSchema = z.object({
  id: z.string().regex(/^msg_/),
  type: z.literal('message'),
  role: z.literal('assistant'),
  model: z.string(),
  content: z.array(blockSchema),
  stop_reason: z.enum(['end_turn', 'max_tokens', 'stop_sequence', 'tool_use', 'refusal']),
  stop_sequence: z.null(),
  usage: z.object({
    input_tokens: z.number().int(),
    output_tokens: z.number().int(),
    cache_creation_input_tokens: z.number().int(),
    cache_read_input_tokens: z.number().int(),
  }),
  valve: z.union([doorExtensionSchema, decidedExtensionSchema]),
});

export const tokensCountSchema = z.object({ input_tokens: z.number().int() });

export const modelInfoSchema = z.object({
  type: z.literal('model'),
  id: z.string(),
  display_name: z.string(),
  created_at: z.string(),
  max_input_tokens: z.number().int().nullable(),
  max_tokens: z.number().int().nullable(),
});

export const modelsPageSchema = z.object({
  data: z.array(modelInfoSchema),
  has_more: z.boolean(),
  first_id: z.string().nullable(),
  last_id: z.string().nullable(),
});

export const anthropicErrorBodySchema = z.object({
  type: z.literal('error'),
  error: z.object({ type: z.string(), message: z.string() }),
  request_id: z.string(),
  valve: z.record(z.string(), z.unknown()),
});
