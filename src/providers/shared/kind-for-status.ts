import type { ModelErrorKind } from '../../model/model-error';

/**
 * The error kind an HTTP status suggests when the provider's body says nothing more precise. Each
 * provider's parse-error refines it from the body (a 400 may be a context overflow, a 429 an
 * exhausted quota, a 403 a content block).
 */
export function kindForStatus(status: number): ModelErrorKind {
  if (status === 400 || status === 409 || status === 413 || status === 422) return 'invalid_request';
  if (status === 401) return 'auth';
  if (status === 402) return 'quota_exhausted';
  if (status === 403) return 'permission';
  if (status === 404) return 'not_found';
  if (status === 408 || status === 504) return 'timeout';
  if (status === 429) return 'rate_limited';
  if (status === 503 || status === 529) return 'overloaded';
  if (status >= 500 && status <= 599) return 'server';
  return 'unknown';
}
