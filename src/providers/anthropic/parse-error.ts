import type { ModelErrorKind } from '../../model/model-error';
import { kindForStatus } from '../shared/kind-for-status';
import type { Classified, HttpFailure } from '../shared/send-request';
import { anthropicErrorBodySchema } from './wire-schemas';

const byType: Record<string, ModelErrorKind> = {
  authentication_error: 'auth',
  permission_error: 'permission',
  not_found_error: 'not_found',
  request_too_large: 'invalid_request',
  rate_limit_error: 'rate_limited',
  api_error: 'server',
  overloaded_error: 'overloaded',
  billing_error: 'quota_exhausted',
  timeout_error: 'timeout',
};

/**
 * An Anthropic error, `{ type: "error", error: { type, message } }`, over HTTP or as an in-band SSE
 * `error` event (status undefined). The error type wins over the status; an `invalid_request_error`
 * whose prompt is too long is a context overflow, and a spend cap (`enforced_spend_limit_reached`,
 * or a credit balance too low) is an exhausted quota that no retry can help.
 */
export function classifyAnthropicError(status: number | undefined, json: unknown, text = ''): Classified {
  const parsed = anthropicErrorBodySchema.safeParse(json);
  const error = parsed.success ? parsed.data.error : undefined;
  const type = error?.type ?? '';
  const message = error?.message ?? (text.slice(0, 300) || `HTTP ${status ?? 'stream'} error`);
  const detailCode = error?.details?.error_code ?? '';
  let kind: ModelErrorKind | undefined = byType[type];
  if (
    detailCode === 'enforced_spend_limit_reached' ||
    /credit balance is too low|spend limit/i.test(message)
  ) {
    kind = 'quota_exhausted';
  } else if (type === 'invalid_request_error') {
    kind = /prompt is too long|context (window|length)|too many (input )?tokens/i.test(message)
      ? 'context_overflow'
      : 'invalid_request';
  }
  if (!kind) kind = status === undefined ? 'server' : kindForStatus(status);
  return { kind, message, provider_code: detailCode || type || undefined };
}

export function classifyAnthropicFailure(failure: HttpFailure): Classified {
  return classifyAnthropicError(failure.status, failure.json, failure.text);
}
