import type { ModelErrorKind } from '../../model/model-error';
import { kindForStatus } from '../shared/kind-for-status';
import { parseDurationMs } from '../shared/retry-after';
import type { Classified, HttpFailure } from '../shared/send-request';
import { geminiErrorBodySchema } from './wire-schemas';

const byStatus: Record<string, ModelErrorKind> = {
  UNAUTHENTICATED: 'auth',
  PERMISSION_DENIED: 'permission',
  NOT_FOUND: 'not_found',
  RESOURCE_EXHAUSTED: 'rate_limited',
  INTERNAL: 'server',
  UNAVAILABLE: 'overloaded',
  DEADLINE_EXCEEDED: 'timeout',
  INVALID_ARGUMENT: 'invalid_request',
  FAILED_PRECONDITION: 'invalid_request',
};

/**
 * A Google API error, `{ error: { code, message, status, details } }`, in Valve's terms. The
 * `status` and `details` win over the HTTP code: an invalid key arrives as 400 INVALID_ARGUMENT with
 * reason `API_KEY_INVALID`; RESOURCE_EXHAUSTED is a rate limit whose `RetryInfo.retryDelay` is the
 * wait, unless its quota is a daily one, which no retry within a request can outlast.
 */
export function classifyGeminiError(status: number | undefined, json: unknown, text = ''): Classified {
  const parsed = geminiErrorBodySchema.safeParse(json);
  const error = parsed.success ? parsed.data.error : undefined;
  const grpcStatus = error?.status ?? '';
  const message = error?.message ?? (text.slice(0, 300) || `HTTP ${status ?? 'stream'} error`);
  const details = JSON.stringify(error?.details ?? []);
  let kind: ModelErrorKind | undefined = byStatus[grpcStatus];
  if (/API_KEY_INVALID|API key not valid/i.test(`${details} ${message}`)) kind = 'auth';
  else if (
    kind === 'invalid_request' &&
    /token count.*exceeds|exceeds the maximum number of tokens|too long/i.test(message)
  ) {
    kind = 'context_overflow';
  } else if (kind === 'rate_limited' && /PerDay/i.test(details)) kind = 'quota_exhausted';
  if (!kind) kind = status === undefined ? 'server' : kindForStatus(status);
  let retryAfterMs: number | undefined;
  for (const detail of error?.details ?? []) {
    const delay = (detail as Record<string, unknown>).retryDelay;
    if (typeof delay === 'string') retryAfterMs = parseDurationMs(delay);
  }
  return { kind, message, provider_code: grpcStatus || undefined, retry_after_ms: retryAfterMs };
}

export function classifyGeminiFailure(failure: HttpFailure): Classified {
  return classifyGeminiError(failure.status, failure.json, failure.text);
}
