import { z } from 'zod';
import { valveOptionsSchema } from './valve-options';

// The Chat Completions request body as Valve accepts it. Top-level fields are strict, as OpenAI's
// are: a field Valve does not know is a 400 naming it. Content parts are read loosely here and
// checked part by part in the mapper, so an image part gets an error naming exactly that part.

const partSchema = z.looseObject({ type: z.string() });
const contentSchema = z.union([z.string(), z.array(partSchema)]);

const instructionMessageSchema = z.strictObject({
  role: z.enum(['system', 'developer']),
  content: contentSchema,
  name: z.string().optional(),
});

const userMessageSchema = z.strictObject({
  role: z.literal('user'),
  content: contentSchema,
  name: z.string().optional(),
});

export const wireToolCallSchema = z.strictObject({
  id: z.string().min(1),
  type: z.literal('function'),
  function: z.strictObject({ name: z.string().min(1), arguments: z.string() }),
});

const assistantMessageSchema = z.strictObject({
  role: z.literal('assistant'),
  content: contentSchema.nullish(),
  name: z.string().optional(),
  refusal: z.string().nullish(),
  tool_calls: z.array(wireToolCallSchema).optional(),
});

const toolMessageSchema = z.strictObject({
  role: z.literal('tool'),
  content: contentSchema,
  tool_call_id: z.string().min(1),
});

export const chatMessageSchema = z.discriminatedUnion('role', [
  instructionMessageSchema,
  userMessageSchema,
  assistantMessageSchema,
  toolMessageSchema,
]);
export type ChatMessage = z.infer<typeof chatMessageSchema>;

export const functionToolSchema = z.strictObject({
  type: z.literal('function'),
  function: z.strictObject({
    name: z.string().min(1),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
    strict: z.boolean().nullish(),
  }),
});

export const chatRequestSchema = z.strictObject({
  model: z.string().min(1),
  messages: z.array(chatMessageSchema).min(1),
  stream: z.boolean().nullish(),
  stream_options: z
    .strictObject({ include_usage: z.boolean().optional(), include_obfuscation: z.boolean().optional() })
    .nullish(),
  tools: z.array(functionToolSchema).optional(),
  tool_choice: z
    .union([
      z.enum(['none', 'auto', 'required']),
      z.strictObject({ type: z.literal('function'), function: z.strictObject({ name: z.string() }) }),
    ])
    .optional(),
  parallel_tool_calls: z.boolean().optional(),
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().min(0).max(1).nullish(),
  stop: z.union([z.string(), z.array(z.string()).max(4)]).nullish(),
  seed: z.number().int().nullish(),
  response_format: z
    .discriminatedUnion('type', [
      z.strictObject({ type: z.literal('text') }),
      z.strictObject({ type: z.literal('json_object') }),
      z.strictObject({
        type: z.literal('json_schema'),
        json_schema: z.strictObject({
          name: z.string().min(1),
          description: z.string().optional(),
          schema: z.record(z.string(), z.unknown()).optional(),
          strict: z.boolean().nullish(),
        }),
      }),
    ])
    .optional(),
  max_tokens: z.number().int().min(1).nullish(),
  max_completion_tokens: z.number().int().min(1).nullish(),
  n: z.number().int().min(1).max(1, 'Valve answers one choice: n must be 1').nullish(),
  /** An end-user id for abuse monitoring at OpenAI; Valve keeps no content and ignores it. */
  user: z.string().optional(),
  valve: valveOptionsSchema.optional(),
});
export type ChatRequest = z.infer<typeof chatRequestSchema>;
