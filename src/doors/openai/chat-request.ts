import { z } from 'zod';
import { onTheWire } from '../../contracts/wire-schema';
import { reasoningListSchema } from '../reasoning-carrier';
import { valveOptionsSchema } from '../valve-options';
import { chatNeutralFields, ignoredFields } from './neutral-knobs';
import { argumentsWire, chatContentWire, chatUserContentWire } from './wire-parts';

// The Chat Completions request body as Valve accepts it. Top-level fields are strict, as OpenAI's
// are: a field Valve does not know is a 400 naming it. Content parts are read loosely here and
// checked part by part in the mapper (media-parts.ts), so a bad part gets an error naming exactly it.

const partSchema = z.looseObject({ type: z.string() });
const contentSchema = onTheWire(z.union([z.string(), z.array(partSchema)]), chatContentWire);
/** A user message's content: text, images, audio and PDFs (media-parts.ts reads each part). */
const userContentSchema = onTheWire(z.union([z.string(), z.array(partSchema)]), chatUserContentWire);

// Every field OpenAI documents on a message is accepted, null included, so that a message read back
// from a completion (`message.model_dump()`, `.to_dict()`) can be sent again as it is.

const instructionMessageSchema = z.strictObject({
  role: z.enum(['system', 'developer']),
  content: contentSchema,
  name: z.string().nullish(),
});

const userMessageSchema = z.strictObject({
  role: z.literal('user'),
  content: userContentSchema,
  name: z.string().nullish(),
});

export const wireToolCallSchema = z.strictObject({
  id: z.string().min(1),
  type: z.literal('function'),
  function: z.strictObject({ name: z.string().min(1), arguments: onTheWire(z.string(), argumentsWire) }),
});

const assistantMessageSchema = z.strictObject({
  role: z.literal('assistant'),
  content: contentSchema.nullish(),
  name: z.string().nullish(),
  refusal: z.string().nullish(),
  tool_calls: z.array(wireToolCallSchema).nullish(),
  /** URL citations of a web search answer: nothing the model needs again. */
  annotations: z.array(z.unknown()).nullish(),
  /** An earlier audio answer; Valve answers in text, so there is none to refer to. */
  audio: z.null().optional(),
  /** Deprecated form of `tool_calls`, sent as null by SDKs that read it back. */
  function_call: z.null().optional(),
  /** The thinking text Valve answered for display; what is sent back to the model is `valve.reasoning`. */
  reasoning_content: z.string().nullish(),
  /** The reasoning Valve answered with this message, sent back unchanged (reasoning-carrier.ts). */
  valve: z.strictObject({ reasoning: reasoningListSchema.nullish() }).nullish(),
});

const toolMessageSchema = z.strictObject({
  role: z.literal('tool'),
  content: contentSchema,
  tool_call_id: z.string().min(1),
  /** The tool's name, as litellm's and older clients' tool loops send it. */
  name: z.string().nullish(),
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
    description: z.string().nullish(),
    parameters: z.record(z.string(), z.unknown()).nullish(),
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
  tools: z.array(functionToolSchema).nullish(),
  tool_choice: z
    .union([
      z.enum(['none', 'auto', 'required']),
      z.strictObject({ type: z.literal('function'), function: z.strictObject({ name: z.string() }) }),
    ])
    .nullish(),
  parallel_tool_calls: z.boolean().nullish(),
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
          description: z.string().nullish(),
          schema: z.record(z.string(), z.unknown()).nullish(),
          strict: z.boolean().nullish(),
        }),
      }),
    ])
    .nullish(),
  max_tokens: z.number().int().min(1).nullish(),
  max_completion_tokens: z.number().int().min(1).nullish(),
  n: z.number().int().min(1).max(1, 'Valve answers one choice: n must be 1').nullish(),
  ...ignoredFields,
  ...chatNeutralFields,
  valve: valveOptionsSchema.optional(),
});
export type ChatRequest = z.infer<typeof chatRequestSchema>;
