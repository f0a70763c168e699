import type { EventSourceMessage } from 'eventsource-parser';
import { z } from 'zod';
import { parseJsonWithin } from '../../encoding/json-depth';
import type { StreamPart, Usage } from '../../model/model-response';
import type { CallContext } from '../shared/fail';
import { fail } from '../shared/fail';
import { mapWorkersAiUsage, workersAiUsageSchema } from './parse-response';

const eventSchema = z.looseObject({ response: z.string().nullish(), usage: workersAiUsageSchema.nullish() });

/**
 * The SSE stream `env.AI.run(…, { stream: true })` returns: `data: {"response": "…"}` events, then
 * `data: [DONE]`, the terminator without which the answer is incomplete.
 */
export async function* workersAiStreamParts(
  events: AsyncIterable<EventSourceMessage>,
  context: CallContext,
): AsyncGenerator<StreamPart> {
  let usage: Usage = { input_tokens: 0, output_tokens: 0 };
  for await (const event of events) {
    if (event.data.trim() === '[DONE]') {
      yield { type: 'finish', finish_reason: 'other', usage, model: context.model };
      return;
    }
    let json: unknown;
    try {
      json = parseJsonWithin(event.data);
    } catch {
      throw fail(context, {
        kind: 'invalid_response',
        message: 'Workers AI sent an event that is not JSON.',
      });
    }
    const parsed = eventSchema.safeParse(json);
    if (!parsed.success)
      throw fail(context, {
        kind: 'invalid_response',
        message: 'Workers AI sent an event of unknown shape.',
      });
    if (parsed.data.usage) usage = mapWorkersAiUsage(parsed.data.usage);
    if (parsed.data.response) {
      yield {
        type: 'delta',
        delta: { message_id: 'msg', index: 0, delta: { type: 'text', text: parsed.data.response } },
      };
    }
  }
}
