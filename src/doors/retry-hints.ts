import type { ApiError } from '../errors';

// What a door's error tells a client's retry logic, the same at every door: how long to wait, and
// whether a retry would spend the budget again.

/** Whether any attempt was billed: a retry by the client would spend the budget again. */
export function spentOnAttempts(details: Record<string, unknown> | null): boolean {
  const decision = details?.decision as { attempts?: { costUsd?: number }[] } | undefined;
  return (decision?.attempts ?? []).some((attempt) => (attempt.costUsd ?? 0) > 0);
}

/** How long to wait before a retry, in ms: what the provider or the limiter said, else Retry-After. */
export function retryAfterMs(error: ApiError): number | undefined {
  const said = error.details?.retry_after_ms ?? error.details?.retryAfterMs;
  if (typeof said === 'number' && Number.isFinite(said) && said >= 0) return Math.round(said);
  const header = Object.entries(error.headers).find(([name]) => name.toLowerCase() === 'retry-after')?.[1];
  const seconds = header === undefined ? Number.NaN : Number(header);
  return Number.isFinite(seconds) ? Math.round(seconds * 1000) : undefined;
}

/**
 * The retry headers of a door's error: `retry-after-ms` and `retry-after` when there is a wait, and
 * `x-should-retry: false` (read by the OpenAI and Anthropic SDKs) when a retry cannot help or would
 * spend again.
 */
export function retryHeadersOf(error: ApiError): Record<string, string> {
  const headers: Record<string, string> = { ...error.headers };
  const ms = retryAfterMs(error);
  if (ms !== undefined) {
    headers['retry-after-ms'] = String(ms);
    if (!Object.keys(headers).some((name) => name.toLowerCase() === 'retry-after'))
      headers['retry-after'] = String(Math.ceil(ms / 1000));
  }
  if (!error.retryable || spentOnAttempts(error.details)) headers['x-should-retry'] = 'false';
  return headers;
}
