import type { ModelError } from '../../model/model-error';
import type { Usage } from '../../model/model-response';
import type { ModelCallError } from '../model-error';
import { modelFailure, readModelError } from '../model-error';
import { providerErrorMessage, scrubProviderCode, scrubRequestId } from './scrub-message';

/** Which adapter and model a failure belongs to. */
export interface CallContext {
  provider: string;
  model: string;
  /** The call's secrets (its API key): never copied into a failure, only kept out of one. */
  keys?: readonly string[];
}

/** The secrets a failure must not spell: the call's key and any credential header it sent. */
export interface ScrubContext {
  keys?: readonly string[];
}

/**
 * A classified failure of this call, as Valve's one error type (`model.<kind>`): the one place a
 * provider failure is built. Its message is Valve's own sentence, written where the failure was found;
 * a provider code is kept only when code-shaped and a request id only when one token, neither spelling
 * the call's key. A failure the provider described in its own words goes through `providerFailure`.
 */
export function fail(
  context: CallContext,
  error: Omit<ModelError, 'provider' | 'model'>,
  scrub: ScrubContext = {},
): ModelCallError {
  const keys = [...(context.keys ?? []), ...(scrub.keys ?? [])];
  const fields = Object.entries({
    ...error,
    provider_code: scrubProviderCode(error.provider_code, keys),
    request_id: scrubRequestId(error.request_id, keys),
    provider: context.provider,
    model: context.model,
  }).filter(([, value]) => value !== undefined);
  return modelFailure(Object.fromEntries(fields) as unknown as ModelError);
}

/**
 * A failure the provider reported (an error status, an in-band stream error, a binding's exception),
 * classified from its body. The provider's text was read to classify it and is not kept: the message
 * is the allow-listed summary of the kind, the adapter, the status and a code-shaped provider code.
 */
export function providerFailure(
  context: CallContext,
  error: Omit<ModelError, 'provider' | 'model'>,
  scrub: ScrubContext = {},
): ModelCallError {
  const keys = [...(context.keys ?? []), ...(scrub.keys ?? [])];
  const code = scrubProviderCode(error.provider_code, keys);
  const message = providerErrorMessage({
    kind: error.kind,
    provider: context.provider,
    status: error.status,
    code,
  });
  return fail(context, { ...error, message }, scrub);
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
