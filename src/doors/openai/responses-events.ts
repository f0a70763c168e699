import type { ReasonRequest } from '../../contracts/reason-request';
import type { ReasonResponse } from '../../contracts/reason-response';
import type { ApiError } from '../../errors';
import type { StreamEvent } from '../../streaming/stream-events';
import { type HeldBack, holdBack } from '../hold-back';
import type { ApprovalsOf } from '../valve-extension';
import { errorOfEvent } from './chat-chunks';
import { modelIdOf } from './chat-response';
import { openaiErrorOf } from './openai-error';
import { responsesReasoningItemOf } from './reasoning-output';
import type { ResponsesRequest } from './responses-request';
import {
  approvalRequestItemOf,
  finishedResponseOf,
  functionCallItemOf,
  messageIdOf,
  messageItemOf,
  outputItemsOf,
  outputTextPart,
  partTextOf,
  type ResponseShell,
  refusalPart,
  responseIdOf,
  responseObjectOf,
} from './responses-response';
import { responsesAnnotationsOf } from './url-citations';

// Valve's events as Responses API streaming events, each with its `sequence_number`. Valve's native
// events share some names with these but not their payloads, so this is an encoder of its own. As for
// chat, nothing is sent before the first content; a failure after it is `response.failed` followed by
// an `error` event, so a client never takes a cut stream for a complete one.

export interface ResponsesEventOptions {
  request: ResponsesRequest;
  tools: ReasonRequest['tools'];
  allowTaintedDestructive: boolean;
  createdSec: number;
  requestId: string;
  /** The approval requests of the calls held back, for `valve.approvals`. */
  approvalsOf?: ApprovalsOf;
}

/** Where the stream is: the next sequence number, the response once begun, the message streamed so far. */
interface StreamState {
  sequence: number;
  shell: ResponseShell | undefined;
  messageId: string;
  text: string;
  // Which part the message streams: output_text, or the refusal part once a refusal delta came.
  partKind: 'output_text' | 'refusal';
  messageOpen: boolean;
  annotationIndex: number;
}

type EndEvent = Extract<StreamEvent, { type: 'response.completed' | 'response.cancelled' }>;

function frame(state: StreamState, type: string, payload: Record<string, unknown>): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: state.sequence++, ...payload })}\n\n`;
}

/** `response.created` and `response.in_progress`: the response's id and model are known from here. */
function beginFrames(
  state: StreamState,
  options: ResponsesEventOptions,
  receiptId: string,
  model: string,
): string {
  state.shell = {
    id: responseIdOf(receiptId),
    model,
    createdSec: options.createdSec,
    request: options.request,
  };
  state.messageId = messageIdOf(receiptId);
  const response = responseObjectOf(state.shell, 'in_progress');
  return frame(state, 'response.created', { response }) + frame(state, 'response.in_progress', { response });
}

function emptyPart(state: StreamState) {
  return state.partKind === 'refusal' ? refusalPart('') : outputTextPart('');
}

function openMessageFrames(state: StreamState): string {
  state.messageOpen = true;
  return (
    frame(state, 'response.output_item.added', {
      output_index: 0,
      item: messageItemOf(state.messageId, emptyPart(state), 'in_progress'),
    }) +
    frame(state, 'response.content_part.added', {
      item_id: state.messageId,
      output_index: 0,
      content_index: 0,
      part: emptyPart(state),
    })
  );
}

function at(state: StreamState) {
  return { item_id: state.messageId, output_index: 0, content_index: 0 };
}

function deltaFrame(state: StreamState, delta: string): string {
  return state.partKind === 'refusal'
    ? frame(state, 'response.refusal.delta', { ...at(state), delta })
    : frame(state, 'response.output_text.delta', { ...at(state), delta, logprobs: [] });
}

/** A text or refusal delta, opening the message first when it is not open. */
function textFrames(
  state: StreamState,
  type: 'response.output_text.delta' | 'response.refusal.delta',
  delta: string,
) {
  // A refusal and answer text never share the stream: the first delta decides the message's part.
  if (!state.messageOpen && type === 'response.refusal.delta') state.partKind = 'refusal';
  const opening = state.messageOpen ? '' : openMessageFrames(state);
  state.text += delta;
  return opening + deltaFrame(state, delta);
}

function annotationFrames(
  state: StreamState,
  event: Extract<StreamEvent, { type: 'response.output_text.annotations' }>,
): string {
  let out = '';
  for (const annotation of responsesAnnotationsOf(event.annotations, state.text)) {
    out += frame(state, 'response.output_text.annotation.added', {
      ...at(state),
      annotation_index: state.annotationIndex++,
      annotation,
    });
  }
  return out;
}

/** The message's remaining text and its done frames, when the answer has a message: it is item 0. */
function messageDoneFrames(state: StreamState, items: ReturnType<typeof outputItemsOf>): string {
  const part = items[0]?.type === 'message' ? items[0].content[0] : undefined;
  if (items[0]?.type !== 'message' || !part) return '';
  let out = '';
  const finalText = partTextOf(part);
  if (!state.messageOpen) {
    state.partKind = part.type;
    out += openMessageFrames(state);
  }
  if (finalText !== state.text) out += deltaFrame(state, finalText.slice(state.text.length));
  out +=
    part.type === 'refusal'
      ? frame(state, 'response.refusal.done', { ...at(state), refusal: finalText })
      : frame(state, 'response.output_text.done', { ...at(state), text: finalText, logprobs: [] });
  out += frame(state, 'response.content_part.done', { ...at(state), part });
  out += frame(state, 'response.output_item.done', { output_index: 0, item: items[0] });
  return out;
}

function functionCallFrames(state: StreamState, call: HeldBack['visible'][number], index: number): string {
  const item = functionCallItemOf(call, 'completed');
  return (
    frame(state, 'response.output_item.added', {
      output_index: index,
      item: functionCallItemOf(call, 'in_progress'),
    }) +
    frame(state, 'response.function_call_arguments.delta', {
      item_id: item.id,
      output_index: index,
      delta: item.arguments,
    }) +
    frame(state, 'response.function_call_arguments.done', {
      item_id: item.id,
      output_index: index,
      name: item.name,
      arguments: item.arguments,
    }) +
    frame(state, 'response.output_item.done', { output_index: index, item })
  );
}

/** An item that comes whole: added, then done, with nothing between. */
function wholeItemFrames(state: StreamState, item: Record<string, unknown>, index: number): string {
  return (
    frame(state, 'response.output_item.added', { output_index: index, item }) +
    frame(state, 'response.output_item.done', { output_index: index, item })
  );
}

/** The frames that end the stream: the message's end, each output item whole, then the response. */
async function* finishFrames(
  state: StreamState,
  options: ResponsesEventOptions,
  event: EndEvent,
): AsyncGenerator<string> {
  const response = event.response as ReasonResponse;
  if (!state.shell) yield beginFrames(state, options, response.receiptId, modelIdOf(response));
  const current = state.shell as ResponseShell;
  const held = holdBack(response, options.tools, options.allowTaintedDestructive);
  const approvals = held.held.length > 0 ? ((await options.approvalsOf?.(response, held)) ?? []) : [];
  const finished = finishedResponseOf(
    response,
    held,
    current,
    event.type === 'response.cancelled',
    approvals,
  );
  const items = outputItemsOf(response, held);
  let out = messageDoneFrames(state, items);
  let index = out === '' ? 0 : 1;
  for (const call of held.visible) out += functionCallFrames(state, call, index++);
  for (const call of held.held)
    out += wholeItemFrames(state, approvalRequestItemOf(response.receiptId, call), index++);
  const reasoning = responsesReasoningItemOf(response);
  if (reasoning) out += wholeItemFrames(state, reasoning, index);
  out += frame(state, finished.status === 'incomplete' ? 'response.incomplete' : 'response.completed', {
    response: finished,
  });
  yield out;
}

/** `response.failed` followed by an `error` event, so a client never takes a cut stream for a whole one. */
function failedFrames(state: StreamState, shell: ResponseShell, error: ApiError, requestId: string): string {
  const body = openaiErrorOf(error, requestId).body;
  const failed = responseObjectOf(shell, 'failed', {
    error: { code: body.error.code, message: body.error.message },
  });
  return (
    frame(state, 'response.failed', { response: failed }) +
    frame(state, 'error', {
      code: body.error.code,
      message: body.error.message,
      param: body.error.param,
      error: body.error,
    })
  );
}

export async function* responsesEvents(
  events: AsyncIterable<StreamEvent>,
  options: ResponsesEventOptions,
): AsyncGenerator<string> {
  const state: StreamState = {
    sequence: 0,
    shell: undefined,
    messageId: '',
    text: '',
    partKind: 'output_text',
    messageOpen: false,
    annotationIndex: 0,
  };
  for await (const event of events) {
    if (event.type === 'response.created') {
      yield beginFrames(state, options, event.receiptId, `${event.model.provider}/${event.model.model}`);
    } else if (
      (event.type === 'response.output_text.delta' || event.type === 'response.refusal.delta') &&
      event.delta !== ''
    ) {
      yield textFrames(state, event.type, event.delta);
    } else if (
      event.type === 'response.output_text.annotations' &&
      state.messageOpen &&
      state.partKind === 'output_text'
    ) {
      // Citations follow the text they cite, so the message is open when they come.
      const out = annotationFrames(state, event);
      if (out !== '') yield out;
    } else if (event.type === 'response.completed' || event.type === 'response.cancelled') {
      yield* finishFrames(state, options, event);
      return;
    } else if (event.type === 'response.error') {
      const error = errorOfEvent(event);
      if (!state.shell) throw error;
      yield failedFrames(state, state.shell, error, options.requestId);
      return;
    }
  }
}
