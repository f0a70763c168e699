import type { ReasonRequest } from '../../contracts/reason-request';
import type { ReasonResponse, Warning } from '../../contracts/reason-response';
import { ApiError } from '../../errors';
import type { StreamEvent } from '../../streaming/stream-events';
import { holdBack } from '../hold-back';
import { type ApprovalsOf, valveExtensionOf } from '../valve-extension';
import { anthropicErrorOf } from './anthropic-error';
import {
  messageIdOf,
  modelIdOf,
  type StopReason,
  stopReasonOf,
  toolUseOf,
  usageOf,
} from './message-response';
import type { AnthropicThinking } from './thinking-blocks';
import { thinkingBlocksOf } from './thinking-blocks';

// Valve's events as Anthropic's message stream: `message_start` (an empty message) and a `ping`; each
// content block as `content_block_start`, its deltas and `content_block_stop` (text as it comes, each
// tool call whole once Valve validated it, since a delta cannot be taken back: `input_json_delta`
// carries its input in one piece); then `message_delta` with the stop reason, the usage and the
// `valve` extension, and `message_stop`. A failure after the first event is an `error` event in
// Anthropic's shape, and the stream ends without `message_stop`, which the SDKs raise as an error.

export interface EventOptions {
  tools: ReasonRequest['tools'];
  allowTaintedDestructive: boolean;
  requestId: string;
  /** The door's own warnings for the `valve` extension. */
  notes?: readonly Warning[];
  /** The approval requests of the calls held back, for `valve.approvals`. */
  approvalsOf?: ApprovalsOf;
}

export function frame(type: string, data: Record<string, unknown>): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

/** The frames of one whole content block at `index`: its start, its deltas, its stop. */
export function blockFrames(
  index: number,
  block: AnthropicThinking | { type: 'text'; text: string } | ReturnType<typeof toolUseOf>,
): string[] {
  const start = (content_block: Record<string, unknown>) =>
    frame('content_block_start', { index, content_block });
  const delta = (value: Record<string, unknown>) => frame('content_block_delta', { index, delta: value });
  const stop = frame('content_block_stop', { index });
  switch (block.type) {
    case 'thinking':
      return [
        start({ type: 'thinking', thinking: '', signature: '' }),
        ...(block.thinking === '' ? [] : [delta({ type: 'thinking_delta', thinking: block.thinking })]),
        delta({ type: 'signature_delta', signature: block.signature }),
        stop,
      ];
    case 'redacted_thinking':
      return [start({ type: block.type, data: block.data }), stop];
    case 'text':
      return [start({ type: 'text', text: '' }), delta({ type: 'text_delta', text: block.text }), stop];
    case 'tool_use':
      return [
        start({ type: 'tool_use', id: block.id, name: block.name, input: {} }),
        delta({ type: 'input_json_delta', partial_json: JSON.stringify(block.input) }),
        stop,
      ];
  }
}

/** The ApiError a `response.error` event carries. */
function errorOfEvent(event: Extract<StreamEvent, { type: 'response.error' }>): ApiError {
  return new ApiError(event.error.code, event.error.message, { details: event.error.details ?? undefined });
}

/** Where the stream is: whether it began, the next block's index, whether a text block is open. */
interface StreamState {
  started: boolean;
  index: number;
  textOpen: boolean;
}

/** The `message_start` of an empty message, and a `ping`. */
function beginFrames(state: StreamState, receiptId: string, model: string): string[] {
  state.started = true;
  const message = {
    id: messageIdOf(receiptId),
    type: 'message',
    role: 'assistant',
    model,
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: {
      input_tokens: 0,
      output_tokens: 0,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    },
  };
  return [frame('message_start', { message }), frame('ping', {})];
}

/** A text delta, opening the text block first when none is open. */
function* textFrames(state: StreamState, delta: string): Generator<string> {
  if (delta === '') return;
  if (!state.textOpen) {
    yield frame('content_block_start', { index: state.index, content_block: { type: 'text', text: '' } });
    state.textOpen = true;
  }
  yield frame('content_block_delta', { index: state.index, delta: { type: 'text_delta', text: delta } });
}

function* closeTextFrames(state: StreamState): Generator<string> {
  if (!state.textOpen) return;
  yield frame('content_block_stop', { index: state.index });
  state.textOpen = false;
  state.index += 1;
}

/** The frames that end the stream: the blocks that come whole, `message_delta` and `message_stop`. */
async function* finishFrames(
  state: StreamState,
  event: Extract<StreamEvent, { type: 'response.completed' | 'response.cancelled' }>,
  options: EventOptions,
): AsyncGenerator<string> {
  const response = event.response as ReasonResponse;
  if (!state.started) yield* beginFrames(state, response.receiptId, modelIdOf(response));
  // The thinking blocks come whole at the end, once their signatures are known: after any text
  // already streamed (a client keeps blocks in index order, and Valve reads them back wherever
  // they are), and first when no text came.
  yield* closeTextFrames(state);
  for (const block of thinkingBlocksOf(response.reasoning ?? [])) {
    yield* blockFrames(state.index, block);
    state.index += 1;
  }
  const held = holdBack(response, options.tools, options.allowTaintedDestructive);
  if (held.note !== undefined) {
    yield* blockFrames(state.index, { type: 'text', text: held.note });
    state.index += 1;
  }
  for (const call of held.visible) {
    yield* blockFrames(state.index, toolUseOf(call));
    state.index += 1;
  }
  const stopReason: StopReason =
    event.type === 'response.cancelled' ? 'max_tokens' : stopReasonOf(response, held);
  const approvals = held.held.length > 0 ? ((await options.approvalsOf?.(response, held)) ?? []) : [];
  yield frame('message_delta', {
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: usageOf(response),
    valve: valveExtensionOf('anthropic', response, held, options.notes, approvals),
  });
  yield frame('message_stop', {});
}

/**
 * The SSE frames of a message stream. Nothing is yielded before Valve's first event: a failure before
 * it is thrown, so the route answers it as a plain HTTP error in Anthropic's shape.
 */
export async function* messageEvents(
  events: AsyncIterable<StreamEvent>,
  options: EventOptions,
): AsyncGenerator<string> {
  const state: StreamState = { started: false, index: 0, textOpen: false };
  for await (const event of events) {
    switch (event.type) {
      case 'response.created':
        yield* beginFrames(state, event.receiptId, `${event.model.provider}/${event.model.model}`);
        break;
      case 'response.output_text.delta':
      case 'response.refusal.delta':
        yield* textFrames(state, event.delta);
        break;
      case 'response.completed':
      case 'response.cancelled':
        yield* finishFrames(state, event, options);
        return;
      case 'response.error': {
        const error = errorOfEvent(event);
        if (!state.started) throw error;
        yield frame('error', { error: anthropicErrorOf(error, options.requestId).body.error });
        return;
      }
      default:
        // Tool-call events: each call is handed over whole from the completed response.
        break;
    }
  }
}
