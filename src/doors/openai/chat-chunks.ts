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

/**
 * The SSE frames of a chat stream. Nothing is yielded before the first content: a failure before it
 * is thrown, so the route answers it as a plain HTTP error.
 */
export async function* chatChunks(
  events: AsyncIterable<StreamEvent>,
  options: ChunkOptions,
): AsyncGenerator<string> {
  let id = '';
  let model = '';
  const usageNull = options.includeUsage ? { usage: null } : {};
  const chunk = (delta: Record<string, unknown>, finish: string | null = null, extra = {}) => ({
    id,
    object: 'chat.completion.chunk',
    created: options.createdSec,
    model,
    system_fingerprint: null,
    choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
    ...usageNull,
    ...extra,
  });
  let started = false;
  // The content sent so far: OpenAI counts a citation's indices in its characters.
  let text = '';
  const begin = (receiptId: string, modelId: string) => {
    id = completionIdOf(receiptId);
    model = modelId;
    started = true;
    return frame(chunk({ role: 'assistant', content: '' }));
  };
  for await (const event of events) {
    switch (event.type) {
      case 'response.created':
        yield begin(event.receiptId, `${event.model.provider}/${event.model.model}`);
        break;
      case 'response.output_text.delta':
        text += event.delta;
        if (event.delta !== '') yield frame(chunk({ content: event.delta }));
        break;
      case 'response.reasoning.delta':
        // Thinking text, in the field OpenAI-compatible servers stream it in; the state to send back
        // comes whole in the finish chunk's `valve.reasoning`.
        if (event.delta !== '') yield frame(chunk({ reasoning_content: event.delta }));
        break;
      case 'response.output_text.annotations': {
        const annotations = chatAnnotationsOf(event.annotations, text);
        if (annotations.length > 0) yield frame(chunk({ annotations }));
        break;
      }
      case 'response.refusal.delta':
        // OpenAI streams a refusal in `delta.refusal`, apart from the content.
        if (event.delta !== '') yield frame(chunk({ refusal: event.delta }));
        break;
      case 'response.completed':
      case 'response.cancelled': {
        const response = event.response as ReasonResponse;
        if (!started) yield begin(response.receiptId, modelIdOf(response));
        const held = holdBack(response, options.tools, options.allowTaintedDestructive);
        const calls = wireToolCallsOf(held);
        for (const [index, call] of calls.entries()) yield frame(chunk({ tool_calls: [{ index, ...call }] }));
        if (held.note && response.output.format === 'text' && response.output.text === '')
          yield frame(chunk({ content: held.note }));
        const approvals = held.held.length > 0 ? ((await options.approvalsOf?.(response, held)) ?? []) : [];
        const valve = valveExtensionOf('openai', response, held, options.notes, approvals);
        const finish = event.type === 'response.cancelled' ? 'length' : finishReasonOf(response, held);
        yield frame(chunk({}, finish, { valve }));
        if (options.includeUsage) {
          yield frame({
            id,
            object: 'chat.completion.chunk',
            created: options.createdSec,
            model,
            system_fingerprint: null,
            choices: [],
            usage: chatUsageOf(response),
            valve,
          });
        }
        yield 'data: [DONE]\n\n';
        return;
      }
      case 'response.error': {
        const error = errorOfEvent(event);
        if (!started) throw error;
        yield frame(openaiErrorOf(error, options.requestId).body);
        return;
      }
      default:
        // Tool-call events: the call is handed over whole from the completed response.
        break;
    }
  }
}
