import type { EventSourceMessage } from 'eventsource-parser';
import { parseJsonWithin } from '../../encoding/json-depth';
import type { ModelRequest } from '../../model/model-request';
import type { BlockDelta, StreamPart } from '../../model/model-response';
import type { CallContext } from '../shared/fail';
import { fail, providerFailure } from '../shared/fail';
import { refusalSentence } from '../shared/filtered';
import { jsonToolName } from '../shared/message-text';
import { type AnthropicCitation, anthropicAnnotationOf } from './citations';
import { mapAnthropicStopReason } from './map-finish-reason';
import { classifyAnthropicError } from './parse-error';
import { mapAnthropicUsage } from './parse-response';
import { type AnthropicEvent, type AnthropicUsage, anthropicEventSchema } from './wire-schemas';

function parseEvent(event: EventSourceMessage, context: CallContext) {
  let json: unknown;
  try {
    json = parseJsonWithin(event.data);
  } catch {
    throw fail(context, { kind: 'invalid_response', message: 'Anthropic sent an event that is not JSON.' });
  }
  const parsed = anthropicEventSchema.safeParse(json);
  if (!parsed.success) {
    throw fail(context, { kind: 'invalid_response', message: 'Anthropic sent an event of unknown shape.' });
  }
  return { json, event: parsed.data };
}

/** What the stream has told so far, read by the finish and by the blocks that follow. */
interface StreamState {
  messageId: string;
  model?: string;
  raw?: string;
  usage: AnthropicUsage;
  jsonBlocks: Set<number>;
  answeredJson: boolean;
  // Whether content was yielded: a refusal after it cannot take it back, and stays a filter failure.
  yielded: boolean;
  explanation?: string;
  // Citations stream as `citations_delta`s before their block's text; each cites the whole block, so
  // they are sent when the block stops, as offsets into all the text sent so far.
  textLength: number;
  cited: Map<number, { start: number; citations: AnthropicCitation[] }>;
}

function deltaPart(state: StreamState, index: number, delta: BlockDelta): StreamPart {
  return { type: 'delta', delta: { message_id: state.messageId, index, delta } };
}

/** A content delta of the answer: anything but reasoning counts as content yielded. */
function contentPart(state: StreamState, index: number, delta: BlockDelta): StreamPart {
  if (delta.type !== 'reasoning') state.yielded = true;
  return deltaPart(state, index, delta);
}

function readMessageStart(state: StreamState, event: AnthropicEvent): void {
  state.messageId = event.message?.id ?? state.messageId;
  state.model = event.message?.model ?? state.model;
  state.usage = { ...state.usage, ...event.message?.usage };
}

function readMessageDelta(state: StreamState, event: AnthropicEvent): void {
  state.raw = event.delta?.stop_reason ?? state.raw;
  state.explanation = event.delta?.stop_details?.explanation || state.explanation;
  state.usage = {
    ...state.usage,
    ...Object.fromEntries(Object.entries(event.usage ?? {}).filter(([, v]) => v != null)),
  };
}

function blockStartPart(
  state: StreamState,
  block: AnthropicEvent['content_block'],
  index: number,
  request: ModelRequest,
): StreamPart | undefined {
  if (block?.type === 'text') {
    state.cited.set(index, { start: state.textLength, citations: [...(block.citations ?? [])] });
  }
  if (block?.type === 'tool_use' && request.output && block.name === jsonToolName) {
    state.jsonBlocks.add(index);
    state.answeredJson = true;
  } else if (block?.type === 'redacted_thinking' && block.data) {
    // Thinking the safety system encrypted comes whole, at the block's start, with no deltas.
    return contentPart(state, index, { type: 'reasoning', redacted: block.data });
  } else if (block?.type === 'tool_use') {
    return contentPart(state, index, {
      type: 'tool_call',
      id: block.id,
      name: block.name,
      args_fragment: '',
    });
  }
  return undefined;
}

function blockDeltaPart(
  state: StreamState,
  delta: AnthropicEvent['delta'],
  index: number,
): StreamPart | undefined {
  if (delta?.type === 'citations_delta' && delta.citation) {
    state.cited.get(index)?.citations.push(delta.citation);
  } else if (delta?.type === 'text_delta' && delta.text) {
    state.textLength += delta.text.length;
    return contentPart(state, index, { type: 'text', text: delta.text });
  } else if (delta?.type === 'input_json_delta' && state.jsonBlocks.has(index) && delta.partial_json) {
    state.textLength += delta.partial_json.length;
    return contentPart(state, index, { type: 'text', text: delta.partial_json });
  } else if (delta?.type === 'input_json_delta') {
    return contentPart(state, index, { type: 'tool_call', args_fragment: delta.partial_json ?? '' });
  } else if (delta?.type === 'thinking_delta' || delta?.type === 'signature_delta') {
    return contentPart(state, index, { type: 'reasoning', text: delta.thinking, signature: delta.signature });
  }
  return undefined;
}

function blockStopPart(state: StreamState, index: number): StreamPart | undefined {
  const block = state.cited.get(index);
  state.cited.delete(index);
  if (!block || block.citations.length === 0) return undefined;
  const length = state.textLength - block.start;
  return deltaPart(state, index, {
    type: 'annotations',
    annotations: block.citations.map((c) => anthropicAnnotationOf(c, block.start, length)),
  });
}

function* finishParts(state: StreamState, index: number, context: CallContext): Generator<StreamPart> {
  const { raw } = state;
  if (raw === 'refusal' && !state.yielded) {
    const text = state.explanation ?? refusalSentence(context, raw);
    yield deltaPart(state, index, { type: 'refusal', text });
  }
  yield {
    type: 'finish',
    finish_reason: state.answeredJson && raw === 'tool_use' ? 'stop' : mapAnthropicStopReason(raw),
    raw_finish_reason: raw,
    usage: mapAnthropicUsage(state.usage),
    model: state.model,
  };
}

/** The part one event yields, if any, after it updates the state; `ping` and future types carry nothing. */
function eventPart(state: StreamState, event: AnthropicEvent, request: ModelRequest): StreamPart | undefined {
  const index = event.index ?? 0;
  switch (event.type) {
    case 'message_start':
      readMessageStart(state, event);
      return undefined;
    case 'content_block_start':
      return blockStartPart(state, event.content_block, index, request);
    case 'content_block_delta':
      return blockDeltaPart(state, event.delta, index);
    case 'content_block_stop':
      return blockStopPart(state, index);
    case 'message_delta':
      readMessageDelta(state, event);
      return undefined;
    default:
      return undefined;
  }
}

/**
 * Messages SSE events (`message_start` … `message_stop`) as neutral stream parts. The finish comes
 * only with `message_stop`; an in-band `error` event (for example `overloaded_error` mid-answer) is
 * classified like the HTTP error of the same type. The forced JSON tool streams as text.
 */
export async function* anthropicStreamParts(
  events: AsyncIterable<EventSourceMessage>,
  request: ModelRequest,
  context: CallContext,
): AsyncGenerator<StreamPart> {
  const state: StreamState = {
    messageId: 'msg',
    usage: {},
    jsonBlocks: new Set<number>(),
    answeredJson: false,
    yielded: false,
    textLength: 0,
    cited: new Map(),
  };
  for await (const sse of events) {
    const { json, event } = parseEvent(sse, context);
    if (event.type === 'message_stop') {
      yield* finishParts(state, event.index ?? 0, context);
      return;
    }
    if (event.type === 'error') throw providerFailure(context, classifyAnthropicError(undefined, json));
    const part = eventPart(state, event, request);
    if (part) yield part;
  }
}
