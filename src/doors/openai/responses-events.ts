import type { ReasonRequest } from '../../contracts/reason-request';
import type { ReasonResponse } from '../../contracts/reason-response';
import type { StreamEvent } from '../../streaming/stream-events';
import { holdBack } from '../hold-back';
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

export async function* responsesEvents(
  events: AsyncIterable<StreamEvent>,
  options: ResponsesEventOptions,
): AsyncGenerator<string> {
  let sequence = 0;
  const frame = (type: string, payload: Record<string, unknown>) =>
    `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...payload })}\n\n`;
  let shell: ResponseShell | undefined;
  let messageId = '';
  let text = '';
  // Which part the message streams: output_text, or the refusal part once a refusal delta came.
  let partKind: 'output_text' | 'refusal' = 'output_text';
  let messageOpen = false;
  let annotationIndex = 0;
  const begin = (receiptId: string, model: string) => {
    shell = { id: responseIdOf(receiptId), model, createdSec: options.createdSec, request: options.request };
    messageId = messageIdOf(receiptId);
    const response = responseObjectOf(shell, 'in_progress');
    return frame('response.created', { response }) + frame('response.in_progress', { response });
  };
  const emptyPart = () => (partKind === 'refusal' ? refusalPart('') : outputTextPart(''));
  const openMessage = () => {
    messageOpen = true;
    return (
      frame('response.output_item.added', {
        output_index: 0,
        item: messageItemOf(messageId, emptyPart(), 'in_progress'),
      }) +
      frame('response.content_part.added', {
        item_id: messageId,
        output_index: 0,
        content_index: 0,
        part: emptyPart(),
      })
    );
  };
  const at = () => ({ item_id: messageId, output_index: 0, content_index: 0 });
  const deltaFrame = (delta: string) =>
    partKind === 'refusal'
      ? frame('response.refusal.delta', { ...at(), delta })
      : frame('response.output_text.delta', { ...at(), delta, logprobs: [] });
  for await (const event of events) {
    if (event.type === 'response.created') {
      yield begin(event.receiptId, `${event.model.provider}/${event.model.model}`);
    } else if (
      (event.type === 'response.output_text.delta' || event.type === 'response.refusal.delta') &&
      event.delta !== ''
    ) {
      // A refusal and answer text never share the stream: the first delta decides the message's part.
      if (!messageOpen && event.type === 'response.refusal.delta') partKind = 'refusal';
      const opening = messageOpen ? '' : openMessage();
      text += event.delta;
      yield opening + deltaFrame(event.delta);
    } else if (
      event.type === 'response.output_text.annotations' &&
      messageOpen &&
      partKind === 'output_text'
    ) {
      // Citations follow the text they cite, so the message is open when they come.
      let out = '';
      for (const annotation of responsesAnnotationsOf(event.annotations, text)) {
        out += frame('response.output_text.annotation.added', {
          ...at(),
          annotation_index: annotationIndex++,
          annotation,
        });
      }
      if (out !== '') yield out;
    } else if (event.type === 'response.completed' || event.type === 'response.cancelled') {
      const response = event.response as ReasonResponse;
      if (!shell) yield begin(response.receiptId, modelIdOf(response));
      const current = shell as ResponseShell;
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
      let out = '';
      let index = 0;
      const part = items[0]?.type === 'message' ? items[0].content[0] : undefined;
      if (items[0]?.type === 'message' && part) {
        const finalText = partTextOf(part);
        if (!messageOpen) {
          partKind = part.type;
          out += openMessage();
        }
        if (finalText !== text) out += deltaFrame(finalText.slice(text.length));
        out +=
          part.type === 'refusal'
            ? frame('response.refusal.done', { ...at(), refusal: finalText })
            : frame('response.output_text.done', { ...at(), text: finalText, logprobs: [] });
        out += frame('response.content_part.done', { ...at(), part });
        out += frame('response.output_item.done', { output_index: 0, item: items[0] });
        index = 1;
      }
      for (const call of held.visible) {
        const item = functionCallItemOf(call, 'completed');
        out += frame('response.output_item.added', {
          output_index: index,
          item: functionCallItemOf(call, 'in_progress'),
        });
        out += frame('response.function_call_arguments.delta', {
          item_id: item.id,
          output_index: index,
          delta: item.arguments,
        });
        out += frame('response.function_call_arguments.done', {
          item_id: item.id,
          output_index: index,
          name: item.name,
          arguments: item.arguments,
        });
        out += frame('response.output_item.done', { output_index: index, item });
        index++;
      }
      // An approval request comes whole: added, then done, with nothing between.
      for (const call of held.held) {
        const item = approvalRequestItemOf(response.receiptId, call);
        out += frame('response.output_item.added', { output_index: index, item });
        out += frame('response.output_item.done', { output_index: index, item });
        index++;
      }
      const reasoning = responsesReasoningItemOf(response);
      if (reasoning) {
        out += frame('response.output_item.added', { output_index: index, item: reasoning });
        out += frame('response.output_item.done', { output_index: index, item: reasoning });
      }
      out += frame(finished.status === 'incomplete' ? 'response.incomplete' : 'response.completed', {
        response: finished,
      });
      yield out;
      return;
    } else if (event.type === 'response.error') {
      const error = errorOfEvent(event);
      if (!shell) throw error;
      const body = openaiErrorOf(error, options.requestId).body;
      const failed = responseObjectOf(shell, 'failed', {
        error: { code: body.error.code, message: body.error.message },
      });
      yield frame('response.failed', { response: failed }) +
        frame('error', {
          code: body.error.code,
          message: body.error.message,
          param: body.error.param,
          error: body.error,
        });
      return;
    }
  }
}
