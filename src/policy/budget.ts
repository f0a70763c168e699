import type { ModelPolicy } from '../contracts/reason-request';
import type { Left } from './plan-types';

/**
 * The one budget of a request: `maxCostUsd` over all attempts (retries and fallbacks included) and
 * `maxLatencyMs` as one deadline from the moment the request arrived. Spending is recorded as attempts
 * finish; what is left is recomputed before each attempt.
 */
export interface Budget {
  maxCostUsd?: number;
  maxLatencyMs?: number;
  /** When the request arrived, on the clock of `now`. */
  startedAt: number;
  spentUsd: number;
}

export function createBudget(policy: ModelPolicy, startedAt: number): Budget {
  return { maxCostUsd: policy.maxCostUsd, maxLatencyMs: policy.maxLatencyMs, startedAt, spentUsd: 0 };
}

/** What is left of the budget at `now`; `Infinity` for a limit the caller did not set. */
export function budgetLeft(budget: Budget, now: number): Left {
  return {
    costUsd:
      budget.maxCostUsd === undefined
        ? Number.POSITIVE_INFINITY
        : Math.max(0, budget.maxCostUsd - budget.spentUsd),
    timeMs:
      budget.maxLatencyMs === undefined
        ? Number.POSITIVE_INFINITY
        : Math.max(0, budget.maxLatencyMs - (now - budget.startedAt)),
  };
}
