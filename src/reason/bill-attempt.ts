import type { ReasonUsage } from '../contracts/reason-response';
import type { ModelError } from '../model/model-error';
import type { ModelWarning, Usage } from '../model/model-response';
import { costOf } from '../policy/cost-of';
import type { PlannedAttempt } from '../policy/plan-types';
import { overBudgetWarning } from './over-budget';
import { reasonUsageOf } from './reason-usage-of';

/** How an attempt ended, as far as its bill goes: an answer with its billed usage, or a model error. */
export type AttemptEnd =
  | { ok: true; costUsd: number; usage: Usage; cutAtCap?: boolean }
  | { ok: false; error: ModelError };

/** The attempt's limits when it began (policy/attempt-limits). */
export interface BillLimits {
  maxTokens: number;
  worstCaseUsd: number;
}

/** What an attempt counts against maxCostUsd, the usage its trace reports, and any over-budget warning. */
export interface AttemptBill {
  costUsd: number;
  /** Undefined when unknown: a failed attempt that may have produced output before it failed. */
  usage: ReasonUsage | undefined;
  warning?: ModelWarning;
}

const noUsage: ReasonUsage = { inputTokens: 0, outputTokens: 0, reasoningTokens: 0, cacheReadTokens: 0 };

/**
 * The bill of one attempt. An answer is counted as billed, never trimmed to the plan (a provider that
 * ignored `max_tokens` or billed past the worst case gets `model.over_budget`). A failed attempt counts
 * what the provider reported it billed for an answer Valve could not read, else the worst case when it
 * may have been billed (streamed, cut after a 2xx, or timed out once sent), else nothing. Pure.
 */
export function billAttempt(
  end: AttemptEnd,
  attempt: Pick<PlannedAttempt, 'provider' | 'model' | 'entry'>,
  limits: BillLimits,
): AttemptBill {
  if (!end.ok)
    return {
      costUsd: billedOnFailure(end.error, attempt, limits.worstCaseUsd),
      usage: usageOnFailure(end.error),
    };
  const warning = overBudgetWarning({
    provider: attempt.provider,
    model: attempt.model,
    maxTokens: limits.maxTokens,
    worstCaseUsd: limits.worstCaseUsd,
    costUsd: end.costUsd,
    usage: end.usage,
    cutAtCap: end.cutAtCap,
  });
  return { costUsd: end.costUsd, usage: reasonUsageOf(end.usage), ...(warning && { warning }) };
}

function billedOnFailure(
  error: ModelError,
  attempt: Pick<PlannedAttempt, 'entry'>,
  worstCaseUsd: number,
): number {
  if (error.usage) return costOf(error.usage, attempt.entry);
  if (error.dispatch === 'streaming' || error.emitted_deltas) return worstCaseUsd;
  // A 2xx whose body was then cut, stalled or malformed: the provider wrote (and billed) an answer.
  if (error.status !== undefined && error.status >= 200 && error.status < 300) return worstCaseUsd;
  if (error.kind === 'timeout' && error.dispatch !== 'not_sent') return worstCaseUsd;
  return 0;
}

/**
 * None when the provider refused the attempt with an error status or a redirect (never followed) or it
 * was never sent; unknown when it may have produced output before it failed.
 */
function usageOnFailure(error: ModelError): ReasonUsage | undefined {
  if (error.usage) return reasonUsageOf(error.usage);
  if (error.dispatch === 'not_sent') return noUsage;
  if (error.status !== undefined && error.status >= 300 && !error.emitted_deltas) return noUsage;
  return undefined;
}
