import { z } from 'zod';
import { decidedExtensionSchema, doorExtensionSchema } from '../../contracts/door-approvals';

// The door's answers as zod schemas, for the OpenAPI document: OpenAI's own shapes, plus `valve`.

/** The signed Reason response (with the calls held back), or the decision a continuation carried out. */
const valveSchema = z.union([doorExtensionSchema, decidedExtensionSchema]);

const usageSchema = z.object({
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  total_tokens: z.number().int(),
  prompt_tokens_details: z.object({ cached_tokens: z.number().int() }),
  completion_tokens_details: z.object({ reasoning_tokens: z.number().int() }),
});

const toolCallSchema = z.object({
  id: z.string(),
  type: z.literal('function'),
  function: z.object({ name: z.string(), arguments: z.string() }),
});

export const chatCompletionSchema = z.object({
  id: z.string().regex(/^chatcmpl-/),
  object: z.literal('chat.completion'),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      message: z.object({
        role: z.literal('assistant'),
        content: z.string().nullable(),
        refusal: z.null(),
        tool_calls: z.array(toolCallSchema).optional(),
      }),
      finish_reason: z.enum(['stop', 'length', 'tool_calls', 'content_filter']),
      logprobs: z.null(),
    }),
  ),
  usage: usageSchema,
  system_fingerprint: z.null(),
  valve: valveSchema,
});

export const modelObjectSchema = z.object({
  id: z.string(),
  object: z.literal('model'),
  created: z.number().int(),
  owned_by: z.string(),
});

export const modelsListSchema = z.object({
  object: z.literal('list'),
  data: z.array(modelObjectSchema),
});

export const responseObjectSchema = z.looseObject({
  id: z.string().regex(/^resp_/),
  object: z.literal('response'),
  created_at: z.number().int(),
  status: z.enum(['completed', 'incomplete', 'failed', 'in_progress']),
  model: z.string(),
  output: z.array(z.looseObject({ type: z.enum(['message', 'function_call']), id: z.string() })),
  usage: z.looseObject({
    input_tokens: z.number().int(),
    output_tokens: z.number().int(),
    total_tokens: z.number().int(),
  }),
  valve: valveSchema,
});

export const openaiErrorBodySchema = z.object({
  error: z.object({ message: z.string(), type: z.string(), param: z.string().nullable(), code: z.string() }),
  valve: z.record(z.string(), z.unknown()),
});
