import { type AttemptLimits, attemptLimits } from '../policy/attempt-limits';
import { type Budget, budgetLeft } from '../policy/budget';
import type { Plan, PlannedAttempt } from '../policy/plan-types';
import { expectedSilenceMs, type IdleLimit, idleLimitOf, reserveForMs } from '../policy/stall-limit';
import type { LoopDeps } from './attempt-types';

/** One attempt planned inside what is left of the budget: its model, its limits, its time. */
export interface PlannedTry {
  attempt: PlannedAttempt;
  retry: number;
  limits: Extract<AttemptLimits, { ok: true }>;
  /** Time left before the request's deadline when it was planned (`Infinity` without one). */
  timeLeftMs: number;
  /** The longest it may run without a deadline (`defaultAttemptMs`). */
  attemptMs: number;
  /** What the next planned model needs to be worth starting, 0 when none follows. */
  reserveMs: number;
  idle: IdleLimit;
}

export type NextTry = { ok: true; planned: PlannedTry } | { ok: false; reason: string; detail: string };

/**
 * The next try of the plan's `index`th model: its `max_tokens` and worst case recomputed from the money
 * and time left, its idle limit from the room the next model needs; or why it cannot be started
 * (`cost`, `latency`), for the trace.
 */
export function planAttempt(
  plan: Plan,
  index: number,
  retry: number,
  budget: Budget,
  deps: Pick<LoopDeps, 'now' | 'defaultAttemptMs' | 'stream'>,
): NextTry {
  const attempt = plan.attempts[index] as PlannedAttempt;
  const left = budgetLeft(budget, deps.now());
  const limits = attemptLimits(attempt.entry, plan.needs, left, attempt.speed);
  if (!limits.ok) return { ok: false, reason: limits.reason, detail: limits.detail };
  const next = plan.attempts[index + 1];
  const reserveMs = next ? reserveForMs(next.speed, plan.needs, next.maxTokens) : 0;
  const idle = idleLimitOf({
    expectedMs: expectedSilenceMs(attempt.speed, limits.maxTokens, deps.stream === true),
    timeLeftMs: left.timeMs,
    reserveMs,
  });
  const attemptMs = deps.defaultAttemptMs ?? 300_000;
  return {
    ok: true,
    planned: { attempt, retry, limits, timeLeftMs: left.timeMs, attemptMs, reserveMs, idle },
  };
}
