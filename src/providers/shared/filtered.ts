import { type ModelResponse, refusalOf } from '../../model/model-response';
import { type CallContext, fail } from './fail';
import { scrubProviderCode } from './scrub-message';

/**
 * A provider that blocked or cut its own answer (finish `content_filter`) has not answered: the
 * failure is `content_filter`, with the raw reason, rather than a partial text presented as complete.
 */
export function contentFilterFailure(context: CallContext, raw: string | undefined, emitted: boolean) {
  return fail(context, {
    kind: 'content_filter',
    message: `${context.provider} withheld the answer (${scrubProviderCode(raw) ?? 'content_filter'}).`,
    provider_code: raw,
    dispatch: emitted ? 'streaming' : 'sent',
    emitted_deltas: emitted,
  });
}

/** A filtered answer is a failure unless the model said it refuses: a refusal is an answer. */
export function unlessFiltered(response: ModelResponse, context: CallContext): ModelResponse {
  if (response.finish_reason === 'content_filter' && refusalOf(response) === undefined) {
    throw contentFilterFailure(context, response.raw_finish_reason, false);
  }
  return response;
}

/**
 * The words of a refusal whose provider gives none of its own (Anthropic's `refusal` stop without
 * `stop_details`, Gemini's safety blocks): which provider declined, and its reason.
 */
export function refusalSentence(context: CallContext, raw: string): string {
  return `${context.provider} declined to answer (${scrubProviderCode(raw) ?? 'unrecognized reason'}).`;
}
