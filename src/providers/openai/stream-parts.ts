import type { EventSourceMessage } from 'eventsource-parser';
import { parseJsonWithin } from '../../encoding/json-depth';
import type { ModelRequest } from '../../model/model-request';
import type { BlockDelta, ModelWarning, StreamPart, Usage } from '../../model/model-response';
import type { CallContext } from '../shared/fail';
import { fail, providerFailure } from '../shared/fail';
import { jsonToolName } from '../shared/message-text';
import { mapOpenAIFinishReason } from './map-finish-reason';
import { classifyOpenAIError } from './parse-error';
import { mapOpenAIUsage } from './parse-response';
import { type OpenAIAnnotation, openaiAnnotationsOf } from './url-citations';
import { type OpenAIChunk, openaiChunkSchema } from './wire-schemas';

function parseData(event: EventSourceMessage, context: CallContext): unknown {
  try {
    return parseJsonWithin(event.data);
  } catch {
    throw fail(context, {
      kind: 'invalid_response',
      message: `${context.provider} sent a chunk that is not JSON.`,
    });
  }
}

type ChunkChoice = OpenAIChunk['choices'][number];
type ToolCallDelta = NonNullable<NonNullable<ChunkChoice['delta']>['tool_calls']>[number];

/** What the stream has told so far, read by the finish. */
interface StreamState {
  // The forced JSON function's arguments are the answer: they stream as text, as for Anthropic.
  jsonCalls: Set<number>;
  messageId: string;
  model?: string;
  raw?: string;
  usage: Usage;
  refused: boolean;
  // Citations come for the whole message (often in the last chunk): sent once, before the finish.
  text: string;
  cited: OpenAIAnnotation[];
}

/** A chunk's JSON, checked: an in-band `{ "error": … }` is classified like an HTTP error. */
function readChunk(event: EventSourceMessage, context: CallContext): OpenAIChunk {
  const json = parseData(event, context);
  if (typeof json === 'object' && json !== null && 'error' in json) {
    throw providerFailure(context, classifyOpenAIError(undefined, json));
  }
  const chunk = openaiChunkSchema.safeParse(json);
  if (!chunk.success) {
    throw fail(context, {
      kind: 'invalid_response',
      message: `${context.provider} sent a chunk of unknown shape.`,
    });
  }
  return chunk.data;
}

function deltaPart(state: StreamState, index: number, delta: BlockDelta): StreamPart {
  return { type: 'delta', delta: { message_id: state.messageId, index, delta } };
}

function toolCallPart(
  state: StreamState,
  call: ToolCallDelta,
  index: number,
  request: ModelRequest | undefined,
): StreamPart | undefined {
  if (request?.output && call.function?.name === jsonToolName) state.jsonCalls.add(call.index);
  if (state.jsonCalls.has(call.index)) {
    const text = call.function?.arguments ?? '';
    return text !== '' ? deltaPart(state, index, { type: 'text', text }) : undefined;
  }
  return deltaPart(state, call.index, {
    type: 'tool_call',
    ...(call.id && { id: call.id }),
    ...(call.function?.name && { name: call.function.name }),
    args_fragment: call.function?.arguments ?? '',
  });
}

function* choiceParts(
  state: StreamState,
  choice: ChunkChoice,
  request: ModelRequest | undefined,
): Generator<StreamPart> {
  const index = choice.index ?? 0;
  const delta = choice.delta;
  if (delta?.reasoning_content) {
    yield deltaPart(state, index, { type: 'reasoning', text: delta.reasoning_content });
  }
  if (delta?.refusal) {
    state.refused = true;
    yield deltaPart(state, index, { type: 'refusal', text: delta.refusal });
  }
  state.cited.push(...(delta?.annotations ?? []));
  if (delta?.content) {
    state.text += delta.content;
    yield deltaPart(state, index, { type: 'text', text: delta.content });
  }
  for (const call of delta?.tool_calls ?? []) {
    const part = toolCallPart(state, call, index, request);
    if (part) yield part;
  }
  if (choice.finish_reason) state.raw = choice.finish_reason;
}

function finishPart(state: StreamState, terminated: boolean, context: CallContext): StreamPart {
  const { raw } = state;
  const warnings: ModelWarning[] = [];
  if (!terminated)
    warnings.push({
      code: 'model.stream_unterminated',
      message: `The ${context.provider} stream ended after its finish reason without data: [DONE].`,
    });
  return {
    type: 'finish',
    // As in the JSON answer: a refusal finishes as `content_filter`, OpenAI's own `stop` kept raw.
    finish_reason: state.refused
      ? 'content_filter'
      : state.jsonCalls.size > 0 && raw === 'tool_calls'
        ? 'stop'
        : mapOpenAIFinishReason(raw),
    raw_finish_reason: raw,
    usage: state.usage,
    model: state.model,
    ...(warnings.length > 0 && { warnings }),
  };
}

/** The message's citations, if any, then the finish. */
function* closingParts(state: StreamState, terminated: boolean, context: CallContext): Generator<StreamPart> {
  const found = openaiAnnotationsOf(state.cited, state.text);
  if (found.length > 0) yield deltaPart(state, 0, { type: 'annotations', annotations: found });
  yield finishPart(state, terminated, context);
}

/**
 * Chat Completions SSE chunks as neutral stream parts. The finish is held until `data: [DONE]`, the
 * stream's terminator, so that the usage chunk (sent after the finish reason when
 * `stream_options.include_usage` is set) is reported. Completeness is the finish reason, not the
 * terminator: many OpenAI-compatible servers never send `[DONE]`, so a stream that ends after a
 * finish reason is a whole answer (with a `model.stream_unterminated` warning), and one that ends
 * without a finish reason is truncated (guardStream reports it). In-band `{ "error": … }` chunks are
 * classified like HTTP errors.
 */
export async function* openaiStreamParts(
  events: AsyncIterable<EventSourceMessage>,
  context: CallContext,
  request?: ModelRequest,
): AsyncGenerator<StreamPart> {
  const state: StreamState = {
    jsonCalls: new Set<number>(),
    messageId: 'msg',
    usage: { input_tokens: 0, output_tokens: 0 },
    refused: false,
    text: '',
    cited: [],
  };
  for await (const event of events) {
    if (event.data.trim() === '[DONE]') {
      yield* closingParts(state, true, context);
      return;
    }
    const chunk = readChunk(event, context);
    state.messageId = chunk.id ?? state.messageId;
    state.model = chunk.model ?? state.model;
    if (chunk.usage) state.usage = mapOpenAIUsage(chunk.usage);
    for (const choice of chunk.choices) yield* choiceParts(state, choice, request);
  }
  if (state.raw !== undefined) yield* closingParts(state, false, context);
}
