import type { Budget } from '../policy/budget';
import { budgetLeft } from '../policy/budget';
import { decideRetry, type RetryDecision } from '../policy/decide-retry';
import type { Plan } from '../policy/plan-types';
import { ModelCallError } from '../providers/model-error';
import { answerObservation, failureObservation } from './attempt-health';
import { AttemptTrail } from './attempt-trail';
import type { AttemptFn, AttemptsOutcome, LoopDeps } from './attempt-types';
import { billAttempt } from './bill-attempt';
import { type PlannedTry, planAttempt } from './plan-attempt';
import { timerMs } from './race-deadline';
import { type Tried, tryAttempt } from './try-attempt';

// The loop's contract lives beside it (attempt-types.ts); its callers import it from here.
export type { AttemptFn, AttemptInput, AttemptResult, AttemptsOutcome, LoopDeps } from './attempt-types';

/**
 * The attempt loop of one request: walks the plan in order inside one budget. Each try is planned
 * within the money and time left (a model that cannot fit is skipped with its reason), run under its
 * own deadline, billed (bill-attempt.ts), and after a failure decideRetry says whether to retry the
 * same model (after a backoff or Retry-After that fits), fail over, or stop. Throws the last model
 * error, or `policy.budget_exhausted`, as an AttemptsFailedError carrying the decision trace.
 */
export async function runAttempts<T>(
  plan: Plan,
  budget: Budget,
  fn: AttemptFn<T>,
  deps: LoopDeps,
): Promise<AttemptsOutcome<T>> {
  const trail = new AttemptTrail(plan, budget);
  for (const [index, attempt] of plan.attempts.entries()) {
    if (!(await trail.mayStart(attempt, deps.claimProbe))) continue;
    for (let retry = 0; ; retry++) {
      const next = planAttempt(plan, index, retry, budget, deps);
      if (!next.ok) {
        trail.skip(attempt, next.reason, next.detail);
        break;
      }
      const tried = await tryAttempt(fn, next.planned, deps);
      if (tried.ok) return answered(tried, next.planned, budget, trail, deps);
      const decision = failed(tried, next.planned, budget, trail, deps);
      if (decision.action === 'stop') return trail.giveUp();
      if (decision.action === 'failover') {
        trail.failedOver(attempt, decision);
        break;
      }
      const wait = AbortSignal.timeout(timerMs(budgetLeft(budget, deps.now()).timeMs));
      await deps.sleep(decision.delayMs, wait).catch(() => undefined);
    }
  }
  return trail.giveUp();
}

/** An answer: billed, traced, observed, and returned with any over-budget warning. */
function answered<T>(
  tried: Extract<Tried<T>, { ok: true }>,
  planned: PlannedTry,
  budget: Budget,
  trail: AttemptTrail,
  deps: LoopDeps,
): AttemptsOutcome<T> {
  const { attempt, limits } = planned;
  const { result, latencyMs } = tried;
  const bill = billAttempt(
    { ok: true, costUsd: result.costUsd, usage: result.usage, cutAtCap: result.cutAtCap },
    attempt,
    limits,
  );
  budget.spentUsd += bill.costUsd;
  const over = bill.warning;
  if (over) {
    const event = {
      level: 'warn',
      event: 'model.over_budget',
      provider: attempt.provider,
      model: attempt.model,
    };
    console.warn(JSON.stringify(event));
  }
  trail.trace.push({
    provider: attempt.provider,
    model: attempt.model,
    outcome: 'ok',
    latencyMs: Math.round(latencyMs),
    costUsd: bill.costUsd,
    usage: bill.usage,
    retry: planned.retry,
    maxTokens: limits.maxTokens,
    ...(over && { detail: over.message }),
  });
  deps.observe?.(answerObservation(attempt, result, latencyMs));
  return {
    value: result.value,
    attempt,
    usage: result.usage,
    attempts: trail.trace,
    warnings: over ? [over] : [],
  };
}

/** A failure: billed, the next move decided, traced, and observed when it is the model's own fault. */
function failed<T>(
  tried: Extract<Tried<T>, { ok: false }>,
  planned: PlannedTry,
  budget: Budget,
  trail: AttemptTrail,
  deps: LoopDeps,
): RetryDecision {
  const { attempt, limits } = planned;
  const { error, thrown } = tried;
  trail.lastError = new ModelCallError(error, { headers: thrown.headers, cause: thrown });
  const bill = billAttempt({ ok: false, error }, attempt, limits);
  budget.spentUsd += bill.costUsd;
  const decision: RetryDecision = deps.committed?.()
    ? { action: 'stop', reason: 'content was already streamed to the caller; no retry or failover' }
    : decideRetry(error, {
        retries: planned.retry,
        maxRetries: deps.maxRetries,
        timeLeftMs: budgetLeft(budget, deps.now()).timeMs,
        minAttemptMs: attempt.speed.ttftMsP50,
        contextTokens: attempt.entry.contextTokens,
        random: deps.random(),
      });
  trail.trace.push({
    provider: attempt.provider,
    model: attempt.model,
    outcome: 'error',
    errorKind: error.kind,
    latencyMs: Math.round(deps.now() - tried.began),
    costUsd: bill.costUsd,
    usage: bill.usage,
    retry: planned.retry,
    maxTokens: limits.maxTokens,
    detail: decision.reason,
  });
  const observation = failureObservation(planned, error, tried.timedOut, decision);
  if (observation) deps.observe?.(observation);
  return decision;
}
