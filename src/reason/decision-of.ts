import type { DecisionAttempt, ReasonResponse } from '../contracts/reason-response';
import type { Budget } from '../policy/budget';
import type { Plan } from '../policy/plan-types';

/** The decision trace (README "Choosing a model"): the policy as applied, the plan, every exclusion, every attempt. */
export function decisionOf(
  plan: Plan,
  attempts: DecisionAttempt[],
  budget: Budget,
): ReasonResponse['decision'] {
  return {
    prefer: plan.prefer,
    budget: {
      maxCostUsd: budget.maxCostUsd,
      maxLatencyMs: budget.maxLatencyMs,
      maxOutputTokens: plan.needs.maxOutputTokens,
      spentUsd: budget.spentUsd,
    },
    plan: plan.attempts.map((a) => ({
      provider: a.provider,
      model: a.model,
      estCostUsd: a.estCostUsd,
      estLatencyMs: Math.round(a.estLatencyMs),
      worstCaseUsd: a.worstCaseUsd,
      maxTokens: a.maxTokens,
      speedSource: a.speed.source,
    })),
    excluded: plan.excluded,
    attempts,
    ...(plan.needs.media?.priced?.length && { media: plan.needs.media.priced }),
  };
}
