import { z } from 'zod';
import { onTheWire, type WireSchema } from '../../contracts/wire-schema';

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

/**
 * A field Valve accepts only as null, read as absent: any value asks for something Valve does not do, and
 * `why` is the 400's message.
 */
function nullOnly(why: string) {
  return onTheWire(z.null({ error: why }), { type: 'null', description: why }).optional();
}

const zero = { type: 'number', const: 0 };
const no = { type: 'boolean', const: false };
const empty = { type: 'array', maxItems: 0 };

/** Fields with no effect on the answer: accepted at any well-formed value and ignored. */
export const ignoredFields = {
  metadata: z.record(z.string(), z.string()).nullish(),
  service_tier: z.enum(['auto', 'default', 'flex', 'scale', 'priority', 'fast', 'ultrafast']).nullish(),
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
  moderation: nullOnly(
    'Valve runs no OpenAI moderation (its trust checks apply to every request): moderation must be null',
  ),
};

const efforts = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'] as const;

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
  audio: nullOnly('Valve answers in text only: audio must be null'),
  prediction: nullOnly('Valve does not use predicted outputs: prediction must be null'),
  web_search_options: nullOnly('Valve does no web search: leave web_search_options out'),
  /** The deprecated forms of `tools` and `tool_choice`. */
  functions: nullOnly('Valve takes tools, not the deprecated functions: send each function as a tool'),
  function_call: nullOnly(
    'Valve takes tool_choice, not the deprecated function_call: send it as tool_choice',
  ),
  reasoning_effort: z.enum(efforts).nullish(),
  verbosity: z.enum(['low', 'medium', 'high']).nullish(),
};

/** Responses API knobs Valve does not apply, accepted at their neutral values. */
export const responsesNeutralFields = {
  /** Valve always gives a reasoning item's `encrypted_content`, so that is the one thing to include. */
  include: neutralOnly(
    z.array(z.string()),
    { type: 'array', items: { const: 'reasoning.encrypted_content' } },
    (v) => v.every((name) => name === 'reasoning.encrypted_content'),
    'Valve adds nothing else to a response: include may hold only "reasoning.encrypted_content"',
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
      effort: z.enum(efforts).nullish(),
      summary: z.enum(['auto', 'concise', 'detailed']).nullish(),
      generate_summary: z.enum(['auto', 'concise', 'detailed']).nullish(),
      context: z.enum(['auto', 'current_turn', 'all_turns']).nullish(),
      mode: z.string().nullish(),
    })
    .nullish(),
  prompt: nullOnly(
    'Valve keeps no stored prompts: send the prompt as instructions and input, and prompt as null',
  ),
  context_management: neutralOnly(
    z.array(z.unknown()),
    empty,
    (v) => v.length === 0,
    'Valve keeps no context between requests: context_management must be empty',
  ),
  /** Valve streams no obfuscation padding, asked for or not. */
  stream_options: z.strictObject({ include_obfuscation: z.boolean().optional() }).nullish(),
  max_tool_calls: z.number().int().min(1).nullish(),
  /** Options of background runs: at the default window they ask for nothing a foreground answer lacks. */
  background_options: z
    .strictObject({
      completion_window: neutralOnly(
        z.enum(['soonest', '2h', '8h']),
        { type: 'string', const: 'soonest' },
        (v) => v === 'soonest',
        'Valve answers in the foreground, at once: background_options.completion_window must be "soonest"',
      ),
      continuation_id: z.string().nullish(),
    })
    .nullish(),
  /**
   * Image options: Valve sends each image as the body has it and compresses none, so a
   * `context_compression` other than `auto` is not applied (an `openai.param_ignored` warning).
   */
  image: z.strictObject({ context_compression: z.enum(['auto', 'enabled', 'disabled']).nullish() }).nullish(),
  /** The standard program is every request's; the others need an access Valve cannot grant. */
  access_programs: z
    .strictObject({
      cyber: neutralOnly(
        z.enum(['standard', 'daybreak_blue', 'daybreak_red']),
        { type: 'string', const: 'standard' },
        (v) => v === 'standard',
        'Valve grants no access programs: access_programs.cyber must be "standard"',
      ),
    })
    .nullish(),
};
