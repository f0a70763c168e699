import type { CallOptions } from '../../model/model-adapter';
import type { StreamPart } from '../../model/model-response';
import { readModelError } from '../model-error';
import { type CallContext, fail, withFields } from './fail';
import { contentFilterFailure } from './filtered';
import { transportFailure } from './send-request';

function carriesContent(part: StreamPart): boolean {
  if (part.type !== 'delta') return false;
  const delta = part.delta.delta;
  if (delta.type === 'text') return delta.text !== '';
  if (delta.type === 'reasoning') return Boolean(delta.text);
  if (delta.type === 'refusal') return delta.text !== '';
  return true;
}

/**
 * The rules every adapter's stream obeys, in one place: content deltas, then exactly one finish, and
 * nothing after it. A stream that ends without its provider's terminator is `invalid_response`; a cut
 * or stalled one is `network` or `timeout`; every failure says `dispatch: 'streaming'` and whether
 * content had already been emitted, so that the caller never mistakes a partial answer for a whole one.
 */
export async function* guardStream(
  parts: AsyncIterable<StreamPart>,
  context: CallContext,
  options: CallOptions,
): AsyncGenerator<StreamPart> {
  let emitted = false;
  let finished = false;
  // A content_filter finish after a refusal is the refusal's end, not a withheld answer.
  let refused = false;
  try {
    for await (const part of parts) {
      if (finished) break;
      if (part.type === 'delta' && part.delta.delta.type === 'refusal') refused = true;
      if (part.type === 'finish' && part.finish_reason === 'content_filter' && !refused) {
        throw contentFilterFailure(context, part.raw_finish_reason, emitted);
      }
      if (part.type === 'finish') finished = true;
      else if (carriesContent(part)) emitted = true;
      yield part;
    }
  } catch (error) {
    if (readModelError(error)) throw withFields(error, { dispatch: 'streaming', emitted_deltas: emitted });
    throw transportFailure(context, error, options.signal, 'streaming', emitted);
  }
  if (!finished) {
    throw fail(context, {
      kind: 'invalid_response',
      message: `The ${context.provider} stream ended without its terminator; the answer is incomplete.`,
      dispatch: 'streaming',
      emitted_deltas: emitted,
    });
  }
}
