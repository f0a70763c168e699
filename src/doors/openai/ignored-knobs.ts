import type { Warning } from '../../contracts/reason-response';
import type { ChatRequest } from './chat-request';
import type { ResponsesRequest } from './responses-request';

// Knobs a body may set that ask the model for something Valve does not apply: accepted, so that code
// written for OpenAI runs unchanged, and reported in `valve.warnings` so that nobody believes they took
// effect. docs/openai.md lists them in its field table.

/** A knob the body set and Valve did not apply: its parameter path and the value sent. */
export interface IgnoredKnob {
  param: string;
  value: unknown;
}

/** A service tier other than the default asks for a class of service Valve does not choose. */
function tierKnob(tier: string | null | undefined): IgnoredKnob[] {
  return tier === undefined || tier === null || tier === 'auto' || tier === 'default'
    ? []
    : [{ param: 'service_tier', value: tier }];
}

function set(param: string, value: unknown): IgnoredKnob[] {
  return value === undefined || value === null ? [] : [{ param, value }];
}

/** Content parts as the body holds them: read loosely, each checked by the mapper. */
type Parts = readonly Record<string, unknown>[];

/** A setting other than `auto` of how the model sees an image or a file: Valve sends every part as it came. */
function unlessAuto(param: string, detail: unknown): IgnoredKnob[] {
  return detail === undefined || detail === null || detail === 'auto' ? [] : [{ param, value: detail }];
}

/** The `image_url.detail` of each image part of the messages. */
function chatDetails(messages: ChatRequest['messages']): IgnoredKnob[] {
  return messages.flatMap((message, i) =>
    Array.isArray(message.content)
      ? (message.content as Parts).flatMap((part, j) => {
          const image =
            part.type === 'image_url' ? (part.image_url as { detail?: unknown } | undefined) : undefined;
          return unlessAuto(`messages[${i}].content[${j}].image_url.detail`, image?.detail);
        })
      : [],
  );
}

/** The `detail` of each `input_image` and `input_file` part of the input's messages. */
function responsesDetails(input: ResponsesRequest['input']): IgnoredKnob[] {
  if (typeof input === 'string') return [];
  return input.flatMap((item, i) => {
    const content = (item as { content?: unknown }).content;
    if (!Array.isArray(content)) return [];
    return (content as Parts).flatMap((part, j) =>
      part.type === 'input_image' || part.type === 'input_file'
        ? unlessAuto(`input[${i}].content[${j}].detail`, part.detail)
        : [],
    );
  });
}

/** The Chat Completions knobs a body set that Valve does not apply. */
export function ignoredChatKnobs(body: ChatRequest): IgnoredKnob[] {
  return [...chatDetails(body.messages), ...set('verbosity', body.verbosity), ...tierKnob(body.service_tier)];
}

/** The Responses API knobs a body set that Valve does not apply. */
export function ignoredResponsesKnobs(body: ResponsesRequest): IgnoredKnob[] {
  return [
    ...responsesDetails(body.input),
    ...set('reasoning.context', body.reasoning?.context),
    ...set('reasoning.mode', body.reasoning?.mode),
    ...set('text.verbosity', body.text?.verbosity),
    ...(body.truncation === 'auto' ? [{ param: 'truncation', value: 'auto' }] : []),
    ...set('max_tool_calls', body.max_tool_calls),
    ...unlessAuto('image.context_compression', body.image?.context_compression),
    ...tierKnob(body.service_tier),
  ];
}

/** One `openai.param_ignored` warning per knob. */
export function ignoredWarnings(knobs: readonly IgnoredKnob[]): Warning[] {
  return knobs.map(({ param, value }) => ({
    code: 'openai.param_ignored',
    message: `Valve did not apply ${param}: ${JSON.stringify(value)}; the model answered without it (docs/openai.md lists what each field does).`,
  }));
}
