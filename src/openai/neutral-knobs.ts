import { z } from 'zod';
import { onTheWire, type WireSchema } from '../contracts/wire-schema';

// OpenAI request fields Valve does not implement, accepted at the value that asks for nothing (what a
// client sends by default, or null) and refused, naming the field, at any value Valve could not honour.
// docs/openai.md keeps the table of every field and what Valve does with it.

/**
 * A field accepted only at its neutral value(s), which `neutral` states for the OpenAPI document; `why`
 * is the 400's message for any other.
 */
function neutralOnly<T extends z.ZodType>(
  schema: T,
  neutral: WireSchema,
  isNeutral: (value: z.infer<T>) => boolean,
  why: string,
) {
  return onTheWire(schema.refine(isNeutral, why), neutral).nullish();
}

const zero = { type: 'number', const: 0 };
const no = { type: 'boolean', const: false };
const empty = { type: 'array', maxItems: 0 };

/** Fields with no effect on the answer: accepted at any well-formed value and ignored. */
export const ignoredFields = {
  metadata: z.record(z.string(), z.string()).nullish(),
  service_tier: z.enum(['auto', 'default', 'flex', 'scale', 'priority']).nullish(),
  prompt_cache_key: z.string().nullish(),
  prompt_cache_retention: z.enum(['in_memory', '24h']).nullish(),
  /** Caching hints, except a prewarm: that asks for no answer at all. */
  prompt_cache_options: z
    .strictObject({
      mode: z.enum(['implicit', 'explicit']).nullish(),
      ttl: z.enum(['30m', '12h']).nullish(),
      comparison_response_id: z.string().nullish(),
      prewarm: neutralOnly(
        z.boolean(),
        no,
        (v) => v === false,
        'Valve answers every request: prompt_cache_options.prewarm must be false',
      ),
    })
    .nullish(),
  safety_identifier: z.string().nullish(),
  user: z.string().nullish(),
  /** OpenAI's moderation of input and output; Valve's own checks are its trust layer. */
  moderation: z.null().optional(),
};

/** Chat Completions knobs Valve does not apply, accepted at their neutral values. */
export const chatNeutralFields = {
  frequency_penalty: neutralOnly(
    z.number().min(-2).max(2),
    zero,
    (v) => v === 0,
    'Valve does not apply frequency_penalty: only 0 (or null) is accepted',
  ),
  presence_penalty: neutralOnly(
    z.number().min(-2).max(2),
    zero,
    (v) => v === 0,
    'Valve does not apply presence_penalty: only 0 (or null) is accepted',
  ),
  logprobs: neutralOnly(
    z.boolean(),
    no,
    (v) => v === false,
    'Valve returns no log probabilities: logprobs must be false',
  ),
  top_logprobs: neutralOnly(
    z.number().int().min(0).max(20),
    zero,
    (v) => v === 0,
    'Valve returns no log probabilities: top_logprobs must be 0',
  ),
  logit_bias: neutralOnly(
    z.record(z.string(), z.number()),
    { type: 'object', maxProperties: 0 },
    (v) => Object.keys(v).length === 0,
    'Valve does not apply logit_bias: only {} (or null) is accepted',
  ),
  store: neutralOnly(z.boolean(), no, (v) => v === false, 'Valve stores no completions: store must be false'),
  modalities: neutralOnly(
    z.array(z.enum(['text', 'audio'])),
    { type: 'array', items: { const: 'text' } },
    (v) => v.every((m) => m === 'text'),
    'Valve answers in text only: modalities may hold only "text"',
  ),
  audio: z.null().optional(),
  prediction: z.null().optional(),
  web_search_options: z.null().optional(),
  reasoning_effort: z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh']).nullish(),
  verbosity: z.enum(['low', 'medium', 'high']).nullish(),
};

/** Responses API knobs Valve does not apply, accepted at their neutral values. */
export const responsesNeutralFields = {
  include: neutralOnly(
    z.array(z.string()),
    empty,
    (v) => v.length === 0,
    'Valve adds nothing to a response: include must be empty',
  ),
  background: neutralOnly(
    z.boolean(),
    no,
    (v) => v === false,
    'Valve answers in the foreground: background must be false',
  ),
  truncation: z.enum(['auto', 'disabled']).nullish(),
  top_logprobs: neutralOnly(
    z.number().int().min(0).max(20),
    zero,
    (v) => v === 0,
    'Valve returns no log probabilities: top_logprobs must be 0',
  ),
  reasoning: z
    .strictObject({
      effort: z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh']).nullish(),
      summary: z.enum(['auto', 'concise', 'detailed']).nullish(),
      generate_summary: z.enum(['auto', 'concise', 'detailed']).nullish(),
    })
    .nullish(),
  prompt: z.null().optional(),
  context_management: neutralOnly(
    z.array(z.unknown()),
    empty,
    (v) => v.length === 0,
    'Valve keeps no context between requests: context_management must be empty',
  ),
  /** Valve streams no obfuscation padding, asked for or not. */
  stream_options: z.strictObject({ include_obfuscation: z.boolean().optional() }).nullish(),
  max_tool_calls: z.number().int().min(1).nullish(),
};
