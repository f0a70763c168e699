import { parseJsonWithin } from '../../encoding/json-depth';
import type { ContentBlock } from '../../model/message';
import type { ModelRequest } from '../../model/model-request';
import type { ModelResponse, ModelWarning, Usage } from '../../model/model-response';
import type { CallContext } from '../shared/fail';
import { fail, unreadableAnswer } from '../shared/fail';
import { jsonToolName, parseToolArguments } from '../shared/message-text';
import { scrubProviderCode } from '../shared/scrub-message';
import { mapOpenAIFinishReason } from './map-finish-reason';
import { openaiAnnotationsOf } from './url-citations';
import type { OpenAIUsage } from './wire-schemas';
import { openaiResponseSchema } from './wire-schemas';

/** OpenAI usage in Valve's terms; `prompt_tokens` already includes the cached tokens. */
export function mapOpenAIUsage(usage: OpenAIUsage | null | undefined): Usage {
  return {
    input_tokens: usage?.prompt_tokens ?? 0,
    output_tokens: usage?.completion_tokens ?? 0,
    cache_read_tokens: usage?.prompt_tokens_details?.cached_tokens ?? 0,
    reasoning_tokens: usage?.completion_tokens_details?.reasoning_tokens ?? 0,
  };
}

/** The text of a JSON-output answer as a `json` block; text that is not JSON is an invalid response. */
export function jsonBlock(text: string, context: CallContext, finish: string | undefined): ContentBlock {
  try {
    return { type: 'json', value: parseJsonWithin(text) };
  } catch {
    throw fail(context, {
      kind: 'invalid_response',
      message: `${context.provider} was asked for JSON and answered with text that does not parse (finish ${scrubProviderCode(finish) ?? 'unknown'}).`,
      dispatch: 'sent',
      emitted_deltas: false,
    });
  }
}

/** A Chat Completions JSON answer as a ModelResponse, raw and mapped finish reasons kept. */
export function parseOpenAIResponse(
  json: unknown,
  request: ModelRequest,
  context: CallContext,
): ModelResponse {
  const parsed = openaiResponseSchema.safeParse(json);
  if (!parsed.success) {
    throw fail(context, {
      kind: 'invalid_response',
      message: `${context.provider} answered with a body that is not a chat completion.`,
      dispatch: 'sent',
      emitted_deltas: false,
    });
  }
  const choice = parsed.data.choices[0];
  const message = choice?.message;
  const raw = choice?.finish_reason ?? undefined;
  const content: ContentBlock[] = [];
  const warnings: ModelWarning[] = [];
  if (message?.reasoning_content) content.push({ type: 'reasoning', text: message.reasoning_content });
  const text = message?.content ?? '';
  // A refusal is its own outcome, not answer text (and not JSON to validate): OpenAI says `stop`.
  const refused = Boolean(message?.refusal);
  if (message?.refusal) {
    content.push({ type: 'refusal', refusal: message.refusal });
  } else if (
    request.output &&
    text !== '' &&
    (message?.tool_calls ?? []).length === 0 &&
    raw !== 'content_filter'
  ) {
    content.push(jsonBlock(text, context, raw));
  } else if (text !== '') {
    const annotations = openaiAnnotationsOf(message?.annotations, text);
    content.push({ type: 'text', text, ...(annotations.length > 0 && { annotations }) });
  }
  let answeredJson = false;
  for (const call of message?.tool_calls ?? []) {
    if (request.output && call.function.name === jsonToolName) {
      content.push(jsonBlock(call.function.arguments, context, raw));
      answeredJson = true;
      continue;
    }
    const args = parseToolArguments(call.function.arguments);
    if (!args.ok && args.tooDeep)
      throw unreadableAnswer(context, 'tool-call arguments', mapOpenAIUsage(parsed.data.usage));
    content.push(
      args.ok
        ? { type: 'tool_call', id: call.id, name: call.function.name, args: args.args }
        : {
            type: 'invalid_tool_call',
            id: call.id,
            name: call.function.name,
            raw_args: call.function.arguments,
            error: args.error,
          },
    );
  }
  return {
    message: { role: 'assistant', content },
    usage: mapOpenAIUsage(parsed.data.usage),
    finish_reason: refused
      ? 'content_filter'
      : answeredJson && raw === 'tool_calls'
        ? 'stop'
        : mapOpenAIFinishReason(raw),
    raw_finish_reason: raw,
    ...(warnings.length > 0 && { warnings }),
    model: parsed.data.model,
  };
}
