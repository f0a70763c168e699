// A classified provider failure, the same whichever provider failed.

import type { Usage } from './model-response';

export const modelErrorKinds = [
  'rate_limited',
  'overloaded',
  'server',
  'timeout',
  'network',
  'auth',
  'permission',
  'not_found',
  'invalid_request',
  'context_overflow',
  'content_filter',
  'quota_exhausted',
  'invalid_response',
  'unknown',
] as const;
export type ModelErrorKind = (typeof modelErrorKinds)[number];

/** A classified provider failure: what kind, from whom, and whether anything was sent or streamed. */
export interface ModelError {
  kind: ModelErrorKind;
  message: string;
  provider?: string;
  model?: string;
  status?: number;
  provider_code?: string;
  retry_after_ms?: number;
  request_id?: string;
  dispatch?: 'not_sent' | 'sent' | 'streaming';
  emitted_deltas?: boolean;
  /**
   * What the provider reported it billed for an answer it gave but Valve could not read (an
   * `invalid_response` with its usage): the attempt is counted at it. Never sent to a caller.
   */
  usage?: Usage;
}
