import type { EventSourceMessage } from 'eventsource-parser';
import { parseJsonWithin } from '../../encoding/json-depth';
import type { ModelRequest } from '../../model/model-request';
import type { ModelWarning, StreamPart, Usage } from '../../model/model-response';
import type { CallContext } from '../shared/fail';
import { fail, providerFailure } from '../shared/fail';
import { jsonToolName } from '../shared/message-text';
import { mapOpenAIFinishReason } from './map-finish-reason';
import { classifyOpenAIError } from './parse-error';
import { mapOpenAIUsage } from './parse-response';
import { type OpenAIAnnotation, openaiAnnotationsOf } from './url-citations';
import { openaiChunkSchema } from './wire-schemas';

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
  // The forced JSON function's arguments are the answer: they stream as text, as for Anthropic.
  const jsonCalls = new Set<number>();
  let messageId = 'msg';
  let model: string | undefined;
  let raw: string | undefined;
  let usage: Usage = { input_tokens: 0, output_tokens: 0 };
  let refused = false;
  // Citations come for the whole message (often in the last chunk): sent once, before the finish.
  let text = '';
  const cited: OpenAIAnnotation[] = [];
  function* annotations(): Generator<StreamPart> {
    const found = openaiAnnotationsOf(cited, text);
    if (found.length === 0) return;
    yield {
      type: 'delta',
      delta: { message_id: messageId, index: 0, delta: { type: 'annotations', annotations: found } },
    };
  }
  const finish = (terminated: boolean): StreamPart => {
    const warnings: ModelWarning[] = [];
    if (!terminated)
      warnings.push({
        code: 'model.stream_unterminated',
        message: `The ${context.provider} stream ended after its finish reason without data: [DONE].`,
      });
    return {
      type: 'finish',
      // As in the JSON answer: a refusal finishes as `content_filter`, OpenAI's own `stop` kept raw.
      finish_reason: refused
        ? 'content_filter'
        : jsonCalls.size > 0 && raw === 'tool_calls'
          ? 'stop'
          : mapOpenAIFinishReason(raw),
      raw_finish_reason: raw,
      usage,
      model,
      ...(warnings.length > 0 && { warnings }),
    };
  };
  for await (const event of events) {
    if (event.data.trim() === '[DONE]') {
      yield* annotations();
      yield finish(true);
      return;
    }
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
    messageId = chunk.data.id ?? messageId;
    model = chunk.data.model ?? model;
    if (chunk.data.usage) usage = mapOpenAIUsage(chunk.data.usage);
    for (const choice of chunk.data.choices) {
      const index = choice.index ?? 0;
      const delta = choice.delta;
      if (delta?.reasoning_content) {
        yield {
          type: 'delta',
          delta: {
            message_id: messageId,
            index,
            delta: { type: 'reasoning', text: delta.reasoning_content },
          },
        };
      }
      if (delta?.refusal) {
        refused = true;
        yield {
          type: 'delta',
          delta: { message_id: messageId, index, delta: { type: 'refusal', text: delta.refusal } },
        };
      }
      cited.push(...(delta?.annotations ?? []));
      if (delta?.content) {
        text += delta.content;
        yield {
          type: 'delta',
          delta: { message_id: messageId, index, delta: { type: 'text', text: delta.content } },
        };
      }
      for (const call of delta?.tool_calls ?? []) {
        if (request?.output && call.function?.name === jsonToolName) jsonCalls.add(call.index);
        if (jsonCalls.has(call.index)) {
          const text = call.function?.arguments ?? '';
          if (text !== '')
            yield { type: 'delta', delta: { message_id: messageId, index, delta: { type: 'text', text } } };
          continue;
        }
        yield {
          type: 'delta',
          delta: {
            message_id: messageId,
            index: call.index,
            delta: {
              type: 'tool_call',
              ...(call.id && { id: call.id }),
              ...(call.function?.name && { name: call.function.name }),
              args_fragment: call.function?.arguments ?? '',
            },
          },
        };
      }
      if (choice.finish_reason) raw = choice.finish_reason;
    }
  }
  if (raw !== undefined) {
    yield* annotations();
    yield finish(false);
  }
}
