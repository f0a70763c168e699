import type { ModelError } from '../../model/model-error';
import type { ModelCallError } from '../model-error';
import { modelFailure, readModelError } from '../model-error';
import { type ScrubContext, scrubProviderMessage } from './scrub-message';

/** Which adapter and model a failure belongs to. */
export interface CallContext {
  provider: string;
  model: string;
}

/**
 * A classified failure of this call, as Valve's one error type (`model.<kind>`): the one place a
 * provider failure is built, so its message is always scrubbed (keys, Valve's prompt, echoed
 * request text) and bounded before a caller or a log can see it.
 */
export function fail(
  context: CallContext,
  error: Omit<ModelError, 'provider' | 'model'>,
  scrub: ScrubContext = {},
): ModelCallError {
  const message = scrubProviderMessage(error.message, scrub);
  const fields = Object.entries({
    ...error,
    message,
    provider: context.provider,
    model: context.model,
  }).filter(([, value]) => value !== undefined);
  return modelFailure(Object.fromEntries(fields) as unknown as ModelError);
}

/** The same failure with some fields replaced (for example the dispatch state once a stream began). */
export function withFields(error: unknown, fields: Partial<ModelError>): unknown {
  const modelError = readModelError(error);
  if (!modelError) return error;
  return modelFailure({ ...modelError, ...fields });
}
