import { parseJsonWithin } from '../../encoding/json-depth';
import type { CallOptions } from '../../model/model-adapter';
import type { ModelError } from '../../model/model-error';
import type { ModelCallError } from '../model-error';
import { type CallContext, fail, providerFailure, withFields } from './fail';
import { maxErrorBodyBytes, maxJsonBodyBytes, readBounded, TooLargeError } from './read-limits';
import { parseRetryAfterMs } from './retry-after';
import { scrubRequestId } from './scrub-message';
import { IdleTimeoutError, withinIdle } from './timeouts';

/** An upstream answer with a non-2xx status, handed to the provider's classifier. */
export interface HttpFailure {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
}

/** What a provider's classifier decides from a failed answer; the wrapper fills in the rest. */
export type Classified = Pick<ModelError, 'kind' | 'message'> &
  Partial<Pick<ModelError, 'provider_code' | 'retry_after_ms'>>;

export interface WireRequest {
  context: CallContext;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  options: CallOptions;
  classify: (failure: HttpFailure) => Classified;
}

const requestIdHeaders = ['x-request-id', 'request-id', 'cf-ray', 'x-goog-request-id'];

/**
 * The provider's request id: the first of its request-id headers whose value is one token of printable
 * ASCII (`scrubRequestId`). A value that is not is never read further, logged or echoed.
 */
export function requestIdOf(headers: { get(name: string): string | null }): string | undefined {
  for (const name of requestIdHeaders) {
    const id = scrubRequestId(headers.get(name) ?? undefined);
    if (id !== undefined) return id;
  }
  return undefined;
}

/**
 * The failure of a call whose request left (or may have left) this worker while its answer was read:
 * more than Valve reads, a deadline, a stall, or the network.
 */
export function transportFailure(
  context: CallContext,
  error: unknown,
  signal: AbortSignal,
  dispatch: ModelError['dispatch'],
  emitted = false,
): ModelCallError {
  if (error instanceof TooLargeError) {
    return fail(context, {
      kind: 'invalid_response',
      message: `${context.provider} sent ${error.what}; Valve reads no more than that from a provider.`,
      dispatch,
      emitted_deltas: emitted,
    });
  }
  if (error instanceof IdleTimeoutError || signal.aborted) {
    return fail(context, {
      kind: 'timeout',
      message:
        error instanceof IdleTimeoutError
          ? `${context.provider} sent nothing for ${error.idleMs} ms.`
          : `${context.provider} did not finish before the deadline.`,
      dispatch,
      emitted_deltas: emitted,
    });
  }
  const detail = error instanceof Error ? error.message : String(error);
  return fail(context, {
    kind: 'network',
    message: `The connection to ${context.provider} failed (${detail}).`,
    dispatch,
    emitted_deltas: emitted,
  });
}

async function readFailure(response: Response, options: CallOptions): Promise<HttpFailure> {
  let text = '';
  try {
    text = await readBounded(response, maxErrorBodyBytes, options.signal, options.idleTimeoutMs, true);
  } catch {
    // The status is what matters; a body that cannot be read leaves the classifier the status alone.
  }
  let json: unknown;
  try {
    json = text === '' ? undefined : parseJsonWithin(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

// workerd hands a `redirect: 'manual'` answer back as the 3xx itself (never an opaque redirect).
function isRedirect(response: Response): boolean {
  return response.status >= 300 && response.status < 400;
}

/** A provider that answered a redirect: its Location and body are neither followed nor read. */
function redirectFailure(context: CallContext, response: Response): ModelCallError {
  response.body?.cancel().catch(() => {});
  return fail(context, {
    kind: 'invalid_response',
    message: `${context.provider} answered with a redirect (HTTP ${response.status}); Valve does not follow redirects from a provider.`,
    status: response.status,
    request_id: requestIdOf(response.headers),
    dispatch: 'sent',
    emitted_deltas: false,
  });
}

/**
 * POSTs one JSON request and returns the response once its status is 2xx. Every other outcome is
 * thrown as a classified ModelError carrying `dispatch`, `status`, `retry_after_ms` and `request_id`;
 * a redirect is never followed, and is `invalid_response`.
 */
export async function sendRequest(request: WireRequest): Promise<Response> {
  const { context, options } = request;
  let response: Response;
  try {
    response = await withinIdle(
      options.fetch(request.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...request.headers, ...options.headers },
        body: JSON.stringify(request.body),
        signal: options.signal,
        // Followed, a 307 would carry the key headers and the whole prompt to wherever the provider
        // (or anyone between) points, and the answer from there would be signed as the model's.
        redirect: 'manual',
      }),
      options.signal,
      options.idleTimeoutMs,
    );
  } catch (error) {
    throw transportFailure(context, error, options.signal, 'sent');
  }
  if (response.ok) return response;
  if (isRedirect(response)) throw redirectFailure(context, response);
  const failure = await readFailure(response, options);
  const classified = request.classify(failure);
  // Providers echo what they were sent (a prompt too long, a bad field): fail() keeps none of their text.
  const credentials = Object.entries(request.headers).filter(([name]) => /auth|key|token/i.test(name));
  const keys = [options.apiKey, ...credentials.map(([, value]) => value)].filter((k): k is string => !!k);
  throw providerFailure(
    context,
    {
      ...classified,
      status: response.status,
      retry_after_ms: classified.retry_after_ms ?? parseRetryAfterMs(response.headers),
      request_id: requestIdOf(response.headers),
      dispatch: 'sent',
      emitted_deltas: false,
    },
    { keys },
  );
}

/**
 * Reads a 2xx JSON body; a cut body is `network`, a body that is not JSON or is larger than
 * `maxJsonBodyBytes` is `invalid_response`.
 */
export async function readJson(
  response: Response,
  context: CallContext,
  options: CallOptions,
): Promise<unknown> {
  let text: string;
  try {
    text = await readBounded(response, maxJsonBodyBytes, options.signal, options.idleTimeoutMs);
  } catch (error) {
    // The status says the provider answered (and billed) before the body was cut or stalled.
    throw withFields(transportFailure(context, error, options.signal, 'sent'), { status: response.status });
  }
  try {
    return parseJsonWithin(text);
  } catch {
    throw fail(context, {
      kind: 'invalid_response',
      message: `${context.provider} answered 2xx with a body that is not JSON.`,
      status: response.status,
      request_id: requestIdOf(response.headers),
      dispatch: 'sent',
      emitted_deltas: false,
    });
  }
}

/** A configuration problem found before anything was sent (no key, no binding). */
export function notSent(context: CallContext, kind: ModelError['kind'], message: string): ModelCallError {
  return fail(context, { kind, message, dispatch: 'not_sent', emitted_deltas: false });
}
