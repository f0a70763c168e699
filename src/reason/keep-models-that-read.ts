import type { PromptMode } from '../contracts/reason-request';
import type { Plan } from '../policy/plan-types';
import { canReadMode } from '../prompt/choose-mode';

/** The plan without the models that cannot read the prompt's mode, each listed as excluded. */
export function keepModelsThatRead(plan: Plan, mode: PromptMode): Plan {
  const unfit = plan.attempts.filter((attempt) => !canReadMode(attempt.entry, mode));
  if (unfit.length === 0) return plan;
  return {
    ...plan,
    attempts: plan.attempts.filter((attempt) => canReadMode(attempt.entry, mode)),
    excluded: [
      ...plan.excluded,
      ...unfit.map((attempt) => ({
        provider: attempt.provider,
        model: attempt.model,
        reason: 'capability' as const,
        detail: `cannot read ${mode} data regions`,
      })),
    ],
  };
}
