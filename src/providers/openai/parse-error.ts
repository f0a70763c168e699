import type { ModelErrorKind } from '../../model/model-error';
import { kindForStatus } from '../shared/kind-for-status';
import type { Classified, HttpFailure } from '../shared/send-request';
import { openaiErrorBodySchema } from './wire-schemas';

const contextOverflowText =
  /maximum context length|context[_ ]length|context window|too many tokens|prompt is too long/i;

function kindFromCode(code: string, type: string, message: string): ModelErrorKind | undefined {
  if (code === 'context_length_exceeded' || code === 'string_above_max_length') return 'context_overflow';
  if (
    code === 'insufficient_quota' ||
    type === 'insufficient_quota' ||
    code === 'billing_hard_limit_reached'
  ) {
    return 'quota_exhausted';
  }
  if (code === 'invalid_api_key' || type === 'authentication_error') return 'auth';
  if (code === 'content_filter' || code === 'content_policy_violation') return 'content_filter';
  if (code === 'model_not_found') return 'not_found';
  if (
    code === 'rate_limit_exceeded' ||
    type === 'rate_limit_error' ||
    type === 'requests' ||
    type === 'tokens'
  ) {
    return 'rate_limited';
  }
  if (type === 'server_error') return 'server';
  if (contextOverflowText.test(message) && (type === 'invalid_request_error' || code === ''))
    return 'context_overflow';
  return undefined;
}

/**
 * An OpenAI (or compatible) error body, `{ error: { message, type, code, param } }`, in Valve's
 * terms. The code wins over the status: a 429 `insufficient_quota` is an exhausted quota, not a rate
 * limit, and a 400 `context_length_exceeded` is a context overflow.
 */
export function classifyOpenAIError(status: number | undefined, json: unknown, text = ''): Classified {
  const parsed = openaiErrorBodySchema.safeParse(json);
  const error = parsed.success ? parsed.data.error : undefined;
  const code = error?.code === undefined || error.code === null ? '' : String(error.code);
  const type = error?.type ?? '';
  const message = error?.message ?? (text.slice(0, 300) || `HTTP ${status ?? 'stream'} error`);
  let kind = kindFromCode(code, type, message);
  if (!kind && status === 400 && contextOverflowText.test(message)) kind = 'context_overflow';
  if (!kind && status === 503 && /overload|slow down|capacity/i.test(message)) kind = 'overloaded';
  if (!kind) kind = status === undefined ? 'server' : kindForStatus(status);
  return { kind, message, provider_code: code || type || undefined };
}

export function classifyOpenAIFailure(failure: HttpFailure): Classified {
  return classifyOpenAIError(failure.status, failure.json, failure.text);
}
