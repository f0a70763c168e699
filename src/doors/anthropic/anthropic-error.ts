import type { ApiError } from '../../errors';
import { contextOverflowOf } from '../context-overflow';
import { retryHeadersOf } from '../retry-hints';

// Valve's one error type, rendered the way Anthropic's clients read errors: `{ type: "error", error:
// { type, message }, request_id }` with the statuses the SDKs map to their exception classes (and
// retry: 408, 409, 429 and 5xx, unless `x-should-retry: false`). Valve's own error object rides
// beside it as `valve`, for the trace.

export interface AnthropicErrorBody {
  type: 'error';
  error: { type: string; message: string };
  request_id: string;
  valve: ReturnType<ApiError['toErrorObject']>;
}

export interface AnthropicError {
  status: number;
  body: AnthropicErrorBody;
  headers: Record<string, string>;
}

/** Anthropic's error types by the status it answers with. */
const typeByStatus: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

/**
 * The status a Valve error answers with at this door. Anthropic answers a request it cannot serve
 * with 400, never 422; "try again later" (Valve's 503: a provider overloaded, every model held out)
 * is its 529. An input too long for every model is its 400.
 */
export function anthropicStatusOf(error: { code: string; status: number }, overflow?: string): number {
  if (overflow !== undefined || error.status === 422) return 400;
  if (error.status === 503) return 529;
  return error.status;
}

export function anthropicErrorOf(error: ApiError, requestId: string): AnthropicError {
  const overflow = contextOverflowOf(error);
  const status = anthropicStatusOf(error, overflow);
  const type = typeByStatus[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
  // Claude Code compacts the conversation when a 400's message says the prompt is too long, as
  // Anthropic's API words it.
  const message = overflow === undefined ? error.message : `prompt is too long: ${overflow}`;
  return {
    status,
    headers: { ...retryHeadersOf(error), 'request-id': requestId },
    body: {
      type: 'error',
      error: { type, message },
      request_id: requestId,
      valve: error.toErrorObject(requestId),
    },
  };
}
