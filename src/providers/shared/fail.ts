import type { ModelError } from '../../model/model-error';
import type { Usage } from '../../model/model-response';
import type { ModelCallError } from '../model-error';
import { modelFailure, readModelError } from '../model-error';
import { type ScrubContext, scrubProviderCode, scrubProviderMessage, scrubRequestId } from './scrub-message';

/** Which adapter and model a failure belongs to. */
export interface CallContext {
  provider: string;
  model: string;
  /** The call's secrets (its API key): never copied into a failure, only kept out of one. */
  keys?: readonly string[];
}

/**
 * A classified failure of this call, as Valve's one error type (`model.<kind>`): the one place a
 * provider failure is built, so what the provider wrote in it is always cut down to what it may
 * carry before a caller or a log can see it — a message scrubbed (keys however spelled, Valve's
 * prompt, echoed request text) and bounded, a provider code only when code-shaped, a request id only
 * when one token, neither spelling the call's key.
 */
export function fail(
  context: CallContext,
  error: Omit<ModelError, 'provider' | 'model'>,
  scrub: ScrubContext = {},
): ModelCallError {
  const keys = [...(context.keys ?? []), ...(scrub.keys ?? [])];
  const message = scrubProviderMessage(error.message, { ...scrub, keys });
  const fields = Object.entries({
    ...error,
    message,
    provider_code: scrubProviderCode(error.provider_code, keys),
    request_id: scrubRequestId(error.request_id, keys),
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

/**
 * An answer the provider gave, and billed, that Valve cannot read (tool-call arguments nested deeper
 * than Valve parses): `invalid_response`, counted at the usage the provider reported with it.
 */
export function unreadableAnswer(context: CallContext, what: string, usage?: Usage): ModelCallError {
  return fail(context, {
    kind: 'invalid_response',
    message: `${context.provider} answered with ${what} that Valve cannot read.`,
    dispatch: 'sent',
    emitted_deltas: false,
    ...(usage && { usage }),
  });
}
