import type { ModelErrorKind } from '../../model/model-error';
import type { Classified } from '../shared/send-request';

// Internal codes from https://developers.cloudflare.com/workers-ai/platform/errors/ — the binding
// throws an Error whose message carries the code (for example "3040: Capacity temporarily exceeded").
const byCode: Record<string, ModelErrorKind> = {
  '5007': 'not_found',
  '3042': 'not_found',
  '5004': 'invalid_request',
  '3003': 'invalid_request',
  '3006': 'invalid_request',
  '5018': 'permission',
  '5016': 'permission',
  '3023': 'permission',
  '3041': 'permission',
  '3007': 'timeout',
  '3008': 'timeout',
  '3036': 'quota_exhausted',
  '3040': 'overloaded',
};

/** A failure thrown by `env.AI.run`, classified by its Workers AI code, else by its words. */
export function classifyWorkersAiError(error: unknown): Classified {
  const message = error instanceof Error ? error.message : String(error);
  const code = /\b(3\d{3}|5\d{3})\b/.exec(message)?.[1];
  let kind: ModelErrorKind | undefined = code === undefined ? undefined : byCode[code];
  if (!kind && /context (window|length)|too many tokens|maximum context/i.test(message))
    kind = 'context_overflow';
  if (!kind && /rate limit|too many requests/i.test(message)) kind = 'rate_limited';
  if (!kind && /capacity/i.test(message)) kind = 'overloaded';
  return { kind: kind ?? 'server', message: message.slice(0, 300), provider_code: code };
}
