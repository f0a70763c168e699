import type { EventSourceMessage } from 'eventsource-parser';
import { parseJsonWithin } from '../../encoding/json-depth';
import type { StreamPart, Usage } from '../../model/model-response';
import type { CallContext } from '../shared/fail';
import { fail, providerFailure } from '../shared/fail';
import { refusalSentence } from '../shared/filtered';
import { type GeminiGrounding, groundingAnnotations } from './grounding';
import { isGeminiRefusal, mapGeminiFinishReason } from './map-finish-reason';
import { classifyGeminiError } from './parse-error';
import { mapGeminiUsage, partBlocks, readGeminiBody } from './parse-response';

/**
 * `streamGenerateContent?alt=sse` events as neutral stream parts. Each event is a whole
 * GenerateContentResponse; Gemini sends no terminator event, so the stream is complete only when a
 * candidate carried a `finishReason` before the body ended. A body that ends before that is cut.
 */
export async function* geminiStreamParts(
  events: AsyncIterable<EventSourceMessage>,
  context: CallContext,
): AsyncGenerator<StreamPart> {
  let messageId = 'msg';
  let model: string | undefined;
  let raw: string | undefined;
  let calledTools = false;
  let usage: Usage = { input_tokens: 0, output_tokens: 0 };
  let index = 0;
  // Whether answer text or a call was yielded: a refusal cannot take it back.
  let yielded = false;
  // Grounding comes with the last chunks, for the whole answer: sent once, before the finish.
  let text = '';
  let grounding: GeminiGrounding | undefined;
  const refusalDelta = (reason: string): StreamPart => ({
    type: 'delta',
    delta: {
      message_id: messageId,
      index: 0,
      delta: { type: 'refusal', text: refusalSentence(context, reason) },
    },
  });
  for await (const event of events) {
    let json: unknown;
    try {
      json = parseJsonWithin(event.data);
    } catch {
      throw fail(context, { kind: 'invalid_response', message: 'Gemini sent an event that is not JSON.' });
    }
    if (typeof json === 'object' && json !== null && 'error' in json) {
      throw providerFailure(context, classifyGeminiError(undefined, json));
    }
    const body = readGeminiBody(json, context);
    messageId = body.responseId ?? messageId;
    model = body.modelVersion ?? model;
    if (body.usageMetadata) usage = mapGeminiUsage(body.usageMetadata);
    const blocked = body.promptFeedback?.blockReason;
    if (blocked) {
      // The prompt was blocked: nothing else comes, and the block is the refusal.
      yield refusalDelta(blocked);
      yield { type: 'finish', finish_reason: 'content_filter', raw_finish_reason: blocked, usage, model };
      return;
    }
    const candidate = body.candidates?.[0];
    for (const part of candidate?.content?.parts ?? []) {
      for (const block of partBlocks(part, index)) {
        if (block.type !== 'reasoning') yielded = true;
        if (block.type === 'text') {
          text += block.text;
          yield {
            type: 'delta',
            delta: { message_id: messageId, index: 0, delta: { type: 'text', text: block.text } },
          };
        } else if (block.type === 'reasoning') {
          const { type, text, signature, summary, call_id } = block;
          yield {
            type: 'delta',
            delta: { message_id: messageId, index: 0, delta: { type, text, signature, summary, call_id } },
          };
        } else if (block.type === 'tool_call') {
          calledTools = true;
          index++;
          yield {
            type: 'delta',
            delta: {
              message_id: messageId,
              index,
              delta: {
                type: 'tool_call',
                id: block.id,
                name: block.name,
                args_fragment: JSON.stringify(block.args),
              },
            },
          };
        }
      }
    }
    if (candidate?.finishReason) raw = candidate.finishReason;
    grounding = candidate?.groundingMetadata ?? grounding;
  }
  if (raw !== undefined) {
    // Streamed parts are pieces of one text: every segment is read against all of it.
    const annotations = [...groundingAnnotations(grounding, () => text).values()].flat();
    if (annotations.length > 0) {
      yield {
        type: 'delta',
        delta: { message_id: messageId, index: 0, delta: { type: 'annotations', annotations } },
      };
    }
    // A safety finish before any answer is a refusal; after answer text, it stays a filter failure.
    if (isGeminiRefusal(raw) && !yielded) yield refusalDelta(raw);
    yield {
      type: 'finish',
      finish_reason: mapGeminiFinishReason(raw, calledTools),
      raw_finish_reason: raw,
      usage,
      model,
    };
  }
}
