import type { ReasonRequest } from '../../contracts/reason-request';
import type { ReasonResponse, Warning } from '../../contracts/reason-response';
import { ApiError } from '../../errors';
import type { StreamEvent } from '../../streaming/stream-events';
import { holdBack } from '../hold-back';
import { type ApprovalsOf, valveExtensionOf } from '../valve-extension';
import { chatUsageOf, completionIdOf, finishReasonOf, modelIdOf, wireToolCallsOf } from './chat-response';
import { openaiErrorOf } from './openai-error';
import { chatAnnotationsOf } from './url-citations';

// Valve's events as OpenAI `chat.completion.chunk`s: `data:` lines only (no `event:`), the role on
// the first chunk, text deltas as they come (a refusal's in `delta.refusal`), each tool call whole
// once Valve validated it (a delta cannot be taken back), the finish chunk with the `valve`
// extension, the usage chunk when asked, then `data: [DONE]`. A failure after content is an error chunk and the stream ends without
// `[DONE]`, which every OpenAI client reads as an error, never as a complete answer.

export interface ChunkOptions {
  includeUsage: boolean;
  tools: ReasonRequest['tools'];
  allowTaintedDestructive: boolean;
  createdSec: number;
  requestId: string;
  /** The door's own warnings for the `valve` extension (knobs it did not apply). */
  notes?: readonly Warning[];
  /** The approval requests of the calls held back, for `valve.approvals`. */
  approvalsOf?: ApprovalsOf;
}

const frame = (value: unknown) => `data: ${JSON.stringify(value)}\n\n`;

/** The ApiError a `response.error` event carries. */
export function errorOfEvent(event: Extract<StreamEvent, { type: 'response.error' }>): ApiError {
  return new ApiError(event.error.code, event.error.message, { details: event.error.details ?? undefined });
}

/** The stream's completion id and model once it began, and the content sent so far. */
interface StreamState {
  id: string;
  model: string;
  started: boolean;
  // OpenAI counts a citation's indices in the characters of the content sent so far.
  text: string;
}

type EndEvent = Extract<StreamEvent, { type: 'response.completed' | 'response.cancelled' }>;

function chunkOf(
  state: StreamState,
  options: ChunkOptions,
  delta: Record<string, unknown>,
  finish: string | null = null,
  extra = {},
) {
  return {
    id: state.id,
    object: 'chat.completion.chunk',
    created: options.createdSec,
    model: state.model,
    system_fingerprint: null,
    choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
    ...(options.includeUsage ? { usage: null } : {}),
    ...extra,
  };
}

/** The first chunk, with the role: the stream's id and model are known from here. */
function beginFrame(state: StreamState, options: ChunkOptions, receiptId: string, modelId: string): string {
  state.id = completionIdOf(receiptId);
  state.model = modelId;
  state.started = true;
  return frame(chunkOf(state, options, { role: 'assistant', content: '' }));
}

/** The frame of a streamed delta, or '' when it carries nothing to send. */
function deltaFrame(
  state: StreamState,
  options: ChunkOptions,
  event: Exclude<StreamEvent, EndEvent | { type: 'response.error' | 'response.created' }>,
): string {
  switch (event.type) {
    case 'response.output_text.delta':
      state.text += event.delta;
      return event.delta !== '' ? frame(chunkOf(state, options, { content: event.delta })) : '';
    case 'response.reasoning.delta':
      // Thinking text, in the field OpenAI-compatible servers stream it in; the state to send back
      // comes whole in the finish chunk's `valve.reasoning`.
      return event.delta !== '' ? frame(chunkOf(state, options, { reasoning_content: event.delta })) : '';
    case 'response.output_text.annotations': {
      const annotations = chatAnnotationsOf(event.annotations, state.text);
      return annotations.length > 0 ? frame(chunkOf(state, options, { annotations })) : '';
    }
    case 'response.refusal.delta':
      // OpenAI streams a refusal in `delta.refusal`, apart from the content.
      return event.delta !== '' ? frame(chunkOf(state, options, { refusal: event.delta })) : '';
    default:
      // Tool-call events: the call is handed over whole from the completed response.
      return '';
  }
}

/** The chunks that end the stream: the tool calls, the finish chunk, the usage chunk, `[DONE]`. */
async function* finishFrames(
  state: StreamState,
  options: ChunkOptions,
  event: EndEvent,
): AsyncGenerator<string> {
  const response = event.response as ReasonResponse;
  if (!state.started) yield beginFrame(state, options, response.receiptId, modelIdOf(response));
  const held = holdBack(response, options.tools, options.allowTaintedDestructive);
  const calls = wireToolCallsOf(held);
  for (const [index, call] of calls.entries())
    yield frame(chunkOf(state, options, { tool_calls: [{ index, ...call }] }));
  if (held.note && response.output.format === 'text' && response.output.text === '')
    yield frame(chunkOf(state, options, { content: held.note }));
  const approvals = held.held.length > 0 ? ((await options.approvalsOf?.(response, held)) ?? []) : [];
  const valve = valveExtensionOf('openai', response, held, options.notes, approvals);
  const finish = event.type === 'response.cancelled' ? 'length' : finishReasonOf(response, held);
  yield frame(chunkOf(state, options, {}, finish, { valve }));
  if (options.includeUsage) {
    yield frame({
      id: state.id,
      object: 'chat.completion.chunk',
      created: options.createdSec,
      model: state.model,
      system_fingerprint: null,
      choices: [],
      usage: chatUsageOf(response),
      valve,
    });
  }
  yield 'data: [DONE]\n\n';
}

/**
 * The SSE frames of a chat stream. Nothing is yielded before the first content: a failure before it
 * is thrown, so the route answers it as a plain HTTP error.
 */
export async function* chatChunks(
  events: AsyncIterable<StreamEvent>,
  options: ChunkOptions,
): AsyncGenerator<string> {
  const state: StreamState = { id: '', model: '', started: false, text: '' };
  for await (const event of events) {
    switch (event.type) {
      case 'response.created':
        yield beginFrame(state, options, event.receiptId, `${event.model.provider}/${event.model.model}`);
        break;
      case 'response.completed':
      case 'response.cancelled':
        yield* finishFrames(state, options, event);
        return;
      case 'response.error': {
        const error = errorOfEvent(event);
        if (!state.started) throw error;
        yield frame(openaiErrorOf(error, options.requestId).body);
        return;
      }
      default: {
        const out = deltaFrame(state, options, event);
        if (out !== '') yield out;
      }
    }
  }
}
