import type { EventSourceMessage } from 'eventsource-parser';
import { parseJsonWithin } from '../../encoding/json-depth';
import type { ModelRequest } from '../../model/model-request';
import type { StreamPart } from '../../model/model-response';
import type { CallContext } from '../shared/fail';
import { fail, providerFailure } from '../shared/fail';
import { refusalSentence } from '../shared/filtered';
import { jsonToolName } from '../shared/message-text';
import { type AnthropicCitation, anthropicAnnotationOf } from './citations';
import { mapAnthropicStopReason } from './map-finish-reason';
import { classifyAnthropicError } from './parse-error';
import { mapAnthropicUsage } from './parse-response';
import { type AnthropicUsage, anthropicEventSchema } from './wire-schemas';

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
  let messageId = 'msg';
  let model: string | undefined;
  let raw: string | undefined;
  let usage: AnthropicUsage = {};
  const jsonBlocks = new Set<number>();
  let answeredJson = false;
  // Whether content was yielded: a refusal after it cannot take it back, and stays a filter failure.
  let yielded = false;
  let explanation: string | undefined;
  // Citations stream as `citations_delta`s before their block's text; each cites the whole block, so
  // they are sent when the block stops, as offsets into all the text sent so far.
  let textLength = 0;
  const cited = new Map<number, { start: number; citations: AnthropicCitation[] }>();
  for await (const sse of events) {
    const { json, event } = parseEvent(sse, context);
    const index = event.index ?? 0;
    const part = (delta: StreamPart & { type: 'delta' }) => {
      if (delta.delta.delta.type !== 'reasoning') yielded = true;
      return delta;
    };
    switch (event.type) {
      case 'message_start':
        messageId = event.message?.id ?? messageId;
        model = event.message?.model ?? model;
        usage = { ...usage, ...event.message?.usage };
        break;
      case 'content_block_start': {
        const block = event.content_block;
        if (block?.type === 'text') {
          cited.set(index, { start: textLength, citations: [...(block.citations ?? [])] });
        }
        if (block?.type === 'tool_use' && request.output && block.name === jsonToolName) {
          jsonBlocks.add(index);
          answeredJson = true;
        } else if (block?.type === 'redacted_thinking' && block.data) {
          // Thinking the safety system encrypted comes whole, at the block's start, with no deltas.
          yield part({
            type: 'delta',
            delta: { message_id: messageId, index, delta: { type: 'reasoning', redacted: block.data } },
          });
        } else if (block?.type === 'tool_use') {
          yield part({
            type: 'delta',
            delta: {
              message_id: messageId,
              index,
              delta: { type: 'tool_call', id: block.id, name: block.name, args_fragment: '' },
            },
          });
        }
        break;
      }
      case 'content_block_delta': {
        const delta = event.delta;
        if (delta?.type === 'citations_delta' && delta.citation) {
          cited.get(index)?.citations.push(delta.citation);
        } else if (delta?.type === 'text_delta' && delta.text) {
          textLength += delta.text.length;
          yield part({
            type: 'delta',
            delta: { message_id: messageId, index, delta: { type: 'text', text: delta.text } },
          });
        } else if (delta?.type === 'input_json_delta' && jsonBlocks.has(index) && delta.partial_json) {
          textLength += delta.partial_json.length;
          yield part({
            type: 'delta',
            delta: { message_id: messageId, index, delta: { type: 'text', text: delta.partial_json } },
          });
        } else if (delta?.type === 'input_json_delta') {
          yield part({
            type: 'delta',
            delta: {
              message_id: messageId,
              index,
              delta: { type: 'tool_call', args_fragment: delta.partial_json ?? '' },
            },
          });
        } else if (delta?.type === 'thinking_delta' || delta?.type === 'signature_delta') {
          yield part({
            type: 'delta',
            delta: {
              message_id: messageId,
              index,
              delta: { type: 'reasoning', text: delta.thinking, signature: delta.signature },
            },
          });
        }
        break;
      }
      case 'content_block_stop': {
        const block = cited.get(index);
        cited.delete(index);
        if (block && block.citations.length > 0) {
          const length = textLength - block.start;
          yield {
            type: 'delta',
            delta: {
              message_id: messageId,
              index,
              delta: {
                type: 'annotations',
                annotations: block.citations.map((c) => anthropicAnnotationOf(c, block.start, length)),
              },
            },
          };
        }
        break;
      }
      case 'message_delta':
        raw = event.delta?.stop_reason ?? raw;
        explanation = event.delta?.stop_details?.explanation || explanation;
        usage = {
          ...usage,
          ...Object.fromEntries(Object.entries(event.usage ?? {}).filter(([, v]) => v != null)),
        };
        break;
      case 'message_stop':
        if (raw === 'refusal' && !yielded) {
          const text = explanation ?? refusalSentence(context, raw);
          yield { type: 'delta', delta: { message_id: messageId, index, delta: { type: 'refusal', text } } };
        }
        yield {
          type: 'finish',
          finish_reason: answeredJson && raw === 'tool_use' ? 'stop' : mapAnthropicStopReason(raw),
          raw_finish_reason: raw,
          usage: mapAnthropicUsage(usage),
          model,
        };
        return;
      case 'error':
        throw providerFailure(context, classifyAnthropicError(undefined, json));
      default:
        break; // `ping` and future event types carry nothing Valve needs.
    }
  }
}
