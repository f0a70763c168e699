import type { ContentBlock } from '../../model/message';
import type { ModelRequest } from '../../model/model-request';
import type { ModelResponse, Usage } from '../../model/model-response';
import type { CallContext } from '../shared/fail';
import { fail } from '../shared/fail';
import { refusalSentence } from '../shared/filtered';
import { jsonToolName } from '../shared/message-text';
import { anthropicAnnotationOf } from './citations';
import { jsonToolSchema } from './convert-request';
import { mapAnthropicStopReason } from './map-finish-reason';
import type { AnthropicBlock, AnthropicUsage } from './wire-schemas';
import { anthropicResponseSchema } from './wire-schemas';

/**
 * Anthropic usage in Valve's terms. Anthropic's `input_tokens` excludes cache reads and writes;
 * Valve's `input_tokens` is the whole prompt, with the cached part also counted in `cache_read_tokens`.
 */
export function mapAnthropicUsage(usage: AnthropicUsage | null | undefined): Usage {
  const cacheRead = usage?.cache_read_input_tokens ?? 0;
  const cacheWrite = usage?.cache_creation_input_tokens ?? 0;
  return {
    input_tokens: (usage?.input_tokens ?? 0) + cacheRead + cacheWrite,
    output_tokens: usage?.output_tokens ?? 0,
    cache_read_tokens: cacheRead,
    cache_write_tokens: cacheWrite,
    // Thinking is part of output_tokens, billed at the output price, never added to it.
    reasoning_tokens: usage?.output_tokens_details?.thinking_tokens ?? 0,
  };
}

function toRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function toBlock(block: AnthropicBlock, request: ModelRequest): ContentBlock | undefined {
  if (block.type === 'text') {
    const text = block.text ?? '';
    const annotations = (block.citations ?? []).map((c) => anthropicAnnotationOf(c, 0, text.length));
    return { type: 'text', text, ...(annotations.length > 0 && { annotations }) };
  }
  if (block.type === 'thinking')
    return { type: 'reasoning', text: block.thinking, signature: block.signature };
  if (block.type === 'redacted_thinking') return { type: 'reasoning', redacted: block.data };
  if (block.type === 'tool_use' && request.output && block.name === jsonToolName) {
    const input = toRecord(block.input);
    return { type: 'json', value: jsonToolSchema(request.output.schema).wrapped ? input.value : input };
  }
  if (block.type === 'tool_use') {
    return { type: 'tool_call', id: block.id ?? '', name: block.name ?? '', args: toRecord(block.input) };
  }
  return { type: 'provider', provider: 'anthropic', data: block };
}

/** A Messages JSON answer as a ModelResponse; the forced JSON tool's input becomes a `json` block. */
export function parseAnthropicResponse(
  json: unknown,
  request: ModelRequest,
  context: CallContext,
): ModelResponse {
  const parsed = anthropicResponseSchema.safeParse(json);
  if (!parsed.success) {
    throw fail(context, {
      kind: 'invalid_response',
      message: 'Anthropic answered with a body that is not a message.',
      dispatch: 'sent',
      emitted_deltas: false,
    });
  }
  const content = parsed.data.content.flatMap((block) => toBlock(block, request) ?? []);
  const raw = parsed.data.stop_reason ?? undefined;
  // A whole Messages answer always says why it stopped (only `message_start` of a stream has null).
  if (raw === undefined) {
    throw fail(context, {
      kind: 'invalid_response',
      message: 'Anthropic answered without a stop_reason; the answer may be incomplete.',
      dispatch: 'sent',
      emitted_deltas: false,
    });
  }
  const answeredJson = content.some((block) => block.type === 'json');
  // Claude's `refusal` stop: what it wrote before the classifier stopped it is not the answer.
  if (raw === 'refusal') {
    const words = parsed.data.stop_details?.explanation || refusalSentence(context, raw);
    return {
      message: { role: 'assistant', content: [{ type: 'refusal', refusal: words }] },
      usage: mapAnthropicUsage(parsed.data.usage),
      finish_reason: 'content_filter',
      raw_finish_reason: raw,
      model: parsed.data.model,
    };
  }
  return {
    message: { role: 'assistant', content },
    usage: mapAnthropicUsage(parsed.data.usage),
    // The forced JSON tool is how Anthropic gives structured output, not a tool call for the caller.
    finish_reason: answeredJson && raw === 'tool_use' ? 'stop' : mapAnthropicStopReason(raw),
    raw_finish_reason: raw,
    model: parsed.data.model,
  };
}
