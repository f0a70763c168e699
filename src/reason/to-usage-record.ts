import type { Caller } from '../contracts/caller';
import type { MaybeSignedResponse } from '../contracts/reason-response';
import { ApiError } from '../errors';
import type { UsageRecord } from '../storage/usage-records';
import { AttemptsFailedError } from './attempts-failed-error';

interface AttemptLike {
  provider: string;
  model: string;
  costUsd: number;
  usage?: { inputTokens: number; outputTokens: number };
}

/** The model a failed request was billed for: the last attempt that cost anything, else `none`. */
function billedModelOf(attempts: readonly AttemptLike[]): string {
  const billed = attempts.findLast((a) => a.costUsd > 0);
  return billed ? `${billed.provider}/${billed.model}` : 'none';
}

function fallbacksOf(attempts: readonly AttemptLike[]): number {
  return Math.max(0, new Set(attempts.map((a) => `${a.provider}/${a.model}`)).size - 1);
}

/** The usage record of a finished request: model, tokens, cost, outcome — no content. */
export function usageOfResponse(
  caller: Caller,
  response: MaybeSignedResponse,
  stream: boolean,
  at: number,
): UsageRecord {
  return {
    tenant: caller.tenant,
    key: caller.keyId,
    route: 'POST /v1/reason',
    model: `${response.model.provider}/${response.model.model}`,
    input_tokens: response.usage.inputTokens,
    output_tokens: response.usage.outputTokens,
    latency_ms: response.latencyMs,
    // An answer whose provider ignored max_tokens or billed past the worst case is recorded as such.
    outcome: response.warnings.some((w) => w.code === 'model.over_budget') ? 'model.over_budget' : 'ok',
    fallbacks: fallbacksOf(response.decision.attempts),
    stream,
    cost_usd: response.costUsd,
    created_at: at,
  };
}

/** The usage record of a failed request; attempts that were billed before the failure still count. */
export function usageOfFailure(
  caller: Caller,
  error: unknown,
  latencyMs: number,
  stream: boolean,
  at: number,
): UsageRecord {
  const attempts: readonly AttemptLike[] = error instanceof AttemptsFailedError ? error.attempts : [];
  return {
    tenant: caller.tenant,
    key: caller.keyId,
    route: 'POST /v1/reason',
    model: billedModelOf(attempts),
    input_tokens: attempts.reduce((sum, a) => sum + (a.usage?.inputTokens ?? 0), 0),
    output_tokens: attempts.reduce((sum, a) => sum + (a.usage?.outputTokens ?? 0), 0),
    latency_ms: latencyMs,
    outcome: error instanceof ApiError ? error.code : 'internal.error',
    fallbacks: fallbacksOf(attempts),
    stream,
    cost_usd: attempts.reduce((sum, a) => sum + a.costUsd, 0),
    created_at: at,
  };
}
