import type { ApiError } from '../../errors';
import { contextOverflowOf } from '../context-overflow';
import { openaiParamOf } from '../invalid-param';
import { retryHeadersOf } from '../retry-hints';

// Valve's one error type, rendered the way OpenAI clients read errors: `{ error: { message, type,
// param, code } }` with the status codes the SDKs map to their exception classes, and the headers
// that drive their retries. Valve's own error object rides beside it as `valve`, for the trace.

export interface OpenAiErrorBody {
  error: { message: string; type: string; param: string | null; code: string };
  valve: ReturnType<ApiError['toErrorObject']>;
}

export interface OpenAiError {
  status: number;
  body: OpenAiErrorBody;
  headers: Record<string, string>;
}

const typeByStatus: Record<number, string> = {
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  409: 'conflict_error',
  429: 'rate_limit_error',
};

/** OpenAI's own codes where one means the same; otherwise Valve's code. */
const openaiCodes: Record<string, string> = {
  'auth.missing_key': 'missing_api_key',
  'auth.invalid_key': 'invalid_api_key',
  'auth.revoked_key': 'invalid_api_key',
  'limit.rate_limited': 'rate_limit_exceeded',
  'limit.budget_exhausted': 'insufficient_quota',
  'request.too_large': 'request_too_large',
};

function paramOf(details: Record<string, unknown> | null): string | null {
  if (typeof details?.param === 'string') return details.param;
  const issues = details?.issues;
  if (!Array.isArray(issues)) return null;
  const path = (issues[0] as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' ? openaiParamOf(path) : null;
}

/**
 * An input too long for every model that could serve it, as OpenAI says it: a 400
 * `context_length_exceeded` whose message opens with OpenAI's own words, the ones clients match to
 * raise their context-overflow errors (LangChain reads only the message, litellm either).
 */
function contextLengthExceeded(why: string): Pick<OpenAiErrorBody['error'], 'message' | 'code'> {
  return {
    message: `Input tokens exceed the configured limit of every model that could serve this request (${why}). Please reduce the length of the messages.`,
    code: 'context_length_exceeded',
  };
}

/**
 * The status a Valve error answers with at the door: a tenant out of money is OpenAI's 429
 * insufficient_quota (a 429 no retry fixes); an input too long for every model is OpenAI's 400.
 */
export function openaiStatusOf(error: { code: string; status: number }, overflow?: string): number {
  if (error.code === 'limit.budget_exhausted') return 429;
  return overflow !== undefined ? 400 : error.status;
}

export function openaiErrorOf(error: ApiError, requestId: string): OpenAiError {
  const overflow = contextOverflowOf(error);
  const status = openaiStatusOf(error, overflow);
  const type =
    error.code === 'limit.budget_exhausted'
      ? 'insufficient_quota'
      : (typeByStatus[status] ?? (status >= 500 ? 'server_error' : 'invalid_request_error'));
  const openaiCode = error.details?.openaiCode;
  const headers = retryHeadersOf(error);
  return {
    status,
    headers,
    body: {
      error: {
        message: error.message,
        type,
        param: paramOf(error.details),
        code: typeof openaiCode === 'string' ? openaiCode : (openaiCodes[error.code] ?? error.code),
        ...(overflow !== undefined && contextLengthExceeded(overflow)),
      },
      valve: error.toErrorObject(requestId),
    },
  };
}
