import type { EventSourceMessage } from 'eventsource-parser';
import { parseJsonWithin } from '../../encoding/json-depth';
import type { ContentBlock } from '../../model/message';
import type { BlockDelta, StreamPart, Usage } from '../../model/model-response';
import type { CallContext } from '../shared/fail';
import { fail, providerFailure } from '../shared/fail';
import { refusalSentence } from '../shared/filtered';
import { type GeminiGrounding, groundingAnnotations } from './grounding';
import { isGeminiRefusal, mapGeminiFinishReason } from './map-finish-reason';
import { classifyGeminiError } from './parse-error';
import { mapGeminiUsage, partBlocks, readGeminiBody } from './parse-response';
import type { GeminiResponse } from './wire-schemas';

/** What the stream has told so far, read by the finish. */
interface StreamState {
  messageId: string;
  model?: string;
  raw?: string;
  calledTools: boolean;
  usage: Usage;
  index: number;
  // Whether answer text or a call was yielded: a refusal cannot take it back.
  yielded: boolean;
  // Grounding comes with the last chunks, for the whole answer: sent once, before the finish.
  text: string;
  grounding?: GeminiGrounding;
}

/** An event's GenerateContentResponse, checked: an in-band `{ "error": … }` is classified like an HTTP error. */
function readEvent(event: EventSourceMessage, context: CallContext): GeminiResponse {
  let json: unknown;
  try {
    json = parseJsonWithin(event.data);
  } catch {
    throw fail(context, { kind: 'invalid_response', message: 'Gemini sent an event that is not JSON.' });
  }
  if (typeof json === 'object' && json !== null && 'error' in json) {
    throw providerFailure(context, classifyGeminiError(undefined, json));
  }
  return readGeminiBody(json, context);
}

function deltaPart(state: StreamState, index: number, delta: BlockDelta): StreamPart {
  return { type: 'delta', delta: { message_id: state.messageId, index, delta } };
}

function refusalDelta(state: StreamState, reason: string, context: CallContext): StreamPart {
  return deltaPart(state, 0, { type: 'refusal', text: refusalSentence(context, reason) });
}

function blockPart(state: StreamState, block: ContentBlock): StreamPart | undefined {
  if (block.type !== 'reasoning') state.yielded = true;
  if (block.type === 'text') {
    state.text += block.text;
    return deltaPart(state, 0, { type: 'text', text: block.text });
  }
  if (block.type === 'reasoning') {
    const { type, text, signature, summary, call_id } = block;
    return deltaPart(state, 0, { type, text, signature, summary, call_id });
  }
  if (block.type === 'tool_call') {
    state.calledTools = true;
    state.index++;
    return deltaPart(state, state.index, {
      type: 'tool_call',
      id: block.id,
      name: block.name,
      args_fragment: JSON.stringify(block.args),
    });
  }
  return undefined;
}

/** The grounding's citations, a refusal if the safety finish came before any answer, then the finish. */
function* closingParts(state: StreamState, raw: string, context: CallContext): Generator<StreamPart> {
  // Streamed parts are pieces of one text: every segment is read against all of it.
  const annotations = [...groundingAnnotations(state.grounding, () => state.text).values()].flat();
  if (annotations.length > 0) yield deltaPart(state, 0, { type: 'annotations', annotations });
  // A safety finish before any answer is a refusal; after answer text, it stays a filter failure.
  if (isGeminiRefusal(raw) && !state.yielded) yield refusalDelta(state, raw, context);
  yield {
    type: 'finish',
    finish_reason: mapGeminiFinishReason(raw, state.calledTools),
    raw_finish_reason: raw,
    usage: state.usage,
    model: state.model,
  };
}

/**
 * `streamGenerateContent?alt=sse` events as neutral stream parts. Each event is a whole
 * GenerateContentResponse; Gemini sends no terminator event, so the stream is complete only when a
 * candidate carried a `finishReason` before the body ended. A body that ends before that is cut.
 */
export async function* geminiStreamParts(
  events: AsyncIterable<EventSourceMessage>,
  context: CallContext,
): AsyncGenerator<StreamPart> {
  const state: StreamState = {
    messageId: 'msg',
    calledTools: false,
    usage: { input_tokens: 0, output_tokens: 0 },
    index: 0,
    yielded: false,
    text: '',
  };
  for await (const event of events) {
    const body = readEvent(event, context);
    state.messageId = body.responseId ?? state.messageId;
    state.model = body.modelVersion ?? state.model;
    if (body.usageMetadata) state.usage = mapGeminiUsage(body.usageMetadata);
    const blocked = body.promptFeedback?.blockReason;
    if (blocked) {
      // The prompt was blocked: nothing else comes, and the block is the refusal.
      yield refusalDelta(state, blocked, context);
      const { usage, model } = state;
      yield { type: 'finish', finish_reason: 'content_filter', raw_finish_reason: blocked, usage, model };
      return;
    }
    const candidate = body.candidates?.[0];
    for (const part of candidate?.content?.parts ?? []) {
      for (const block of partBlocks(part, state.index)) {
        const delta = blockPart(state, block);
        if (delta) yield delta;
      }
    }
    if (candidate?.finishReason) state.raw = candidate.finishReason;
    state.grounding = candidate?.groundingMetadata ?? state.grounding;
  }
  if (state.raw !== undefined) yield* closingParts(state, state.raw, context);
}
