import type { DecisionAttempt, ReasonUsage } from '../contracts/reason-response';
import { ApiError } from '../errors';
import type { Observation } from '../health/health-types';
import type { ModelError } from '../model/model-error';
import type { ReasoningSetting } from '../model/model-request';
import type { ModelWarning, Usage } from '../model/model-response';
import { attemptLimits } from '../policy/attempt-limits';
import { type Budget, budgetLeft } from '../policy/budget';
import { costOf } from '../policy/cost-of';
import { decideRetry, type RetryDecision } from '../policy/decide-retry';
import type { Plan, PlannedAttempt } from '../policy/plan-types';
import { expectedSilenceMs, type IdleLimit, idleLimitOf, reserveForMs } from '../policy/stall-limit';
import { ModelCallError } from '../providers/model-error';
import { AttemptsFailedError } from './attempts-failed-error';
import { decisionOf } from './decision-of';
import { overBudgetWarning } from './over-budget';
import { attemptDeadline, deadlineError, raceDeadline, timerMs } from './race-deadline';
import { reasonUsageOf } from './reason-usage-of';

/** What one attempt is given: the planned model, its limits now, and a signal for the time left. */
export interface AttemptInput {
  attempt: PlannedAttempt;
  maxTokens: number;
  /** What this attempt tells its model about thinking, bounded by `maxTokens` (policy/resolve-reasoning). */
  reasoning?: ReasoningSetting;
  signal: AbortSignal;
  retry: number;
  /** Time left before the request's deadline when the attempt starts (`Infinity` without one). */
  timeLeftMs: number;
  /** What the next planned model needs to be worth starting (0 when none follows): see policy/stall-limit. */
  reserveMs: number;
  /**
   * The attempt's idle limit (policy/stall-limit), undefined when nothing but the attempt's own
   * deadline cuts its silence short.
   */
  idleTimeoutMs: number | undefined;
}

/**
 * The idle limit the adapter arms, or undefined when it could never fire first: an idle limit bound
 * by the caller's deadline is the time left, and the attempt's own timer (at most the time left) goes
 * off first or at the same time. Two timers a call fewer (headers, then body) for every attempt with
 * no fallback after it.
 */
function idleTimerMs(idle: IdleLimit): number | undefined {
  return idle.bound === 'deadline' ? undefined : idle.ms;
}

/** What a successful attempt gives back: its value, and the usage it was billed for. */
export interface AttemptResult<T> {
  value: T;
  usage: Usage;
  /** What it cost at the model's prices. */
  costUsd: number;
  /** Time to first token, when the attempt streamed. */
  ttftMs?: number;
  /** The provider did not stop at `maxTokens`, and the attempt stopped reading there. */
  cutAtCap?: boolean;
}

export type AttemptFn<T> = (input: AttemptInput) => Promise<AttemptResult<T>>;

export interface LoopDeps {
  now: () => number;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  random: () => number;
  /** The single probe of a half-open circuit (health/); absent means always granted. */
  claimProbe?: (attempt: PlannedAttempt) => Promise<boolean>;
  /** Every attempt's outcome, for shared health; called synchronously, recorded later. */
  observe?: (observation: Observation) => void;
  maxRetries?: number;
  /** The longest one attempt may run when the caller set no maxLatencyMs. */
  defaultAttemptMs?: number;
  /**
   * True once the attempt has sent content to the caller (a stream past its first delta) or the caller
   * has gone: a failure then stops the loop, never retrying or failing over into the same stream.
   */
  committed?: () => boolean;
  /** The attempts stream (silence is measured between chunks) rather than answer in one piece. */
  stream?: boolean;
}

export interface AttemptsOutcome<T> {
  value: T;
  attempt: PlannedAttempt;
  usage: Usage;
  attempts: DecisionAttempt[];
  /** Warnings of the loop itself (`model.over_budget`), for the answer. */
  warnings: ModelWarning[];
}

/**
 * What a failed attempt counts against maxCostUsd: what the provider reported it billed for an answer
 * Valve could not read, else the worst case when it may have been billed.
 */
function billedOnFailure(error: ModelError, attempt: PlannedAttempt, worstCaseUsd: number): number {
  if (error.usage) return costOf(error.usage, attempt.entry);
  if (error.dispatch === 'streaming' || error.emitted_deltas) return worstCaseUsd;
  // A 2xx whose body was then cut, stalled or malformed: the provider wrote (and billed) an answer.
  if (error.status !== undefined && error.status >= 200 && error.status < 300) return worstCaseUsd;
  if (error.kind === 'timeout' && error.dispatch !== 'not_sent') return worstCaseUsd;
  return 0;
}

const noUsage: ReasonUsage = { inputTokens: 0, outputTokens: 0, reasoningTokens: 0, cacheReadTokens: 0 };

/**
 * The usage a failed attempt reports: none when the provider refused it with an error status or a
 * redirect (never followed) or it was never sent; unknown (undefined, its cost then counted at the
 * worst case) when it may have produced output before it failed.
 */
function usageOnFailure(error: ModelError): ReasonUsage | undefined {
  if (error.usage) return reasonUsageOf(error.usage);
  if (error.dispatch === 'not_sent') return noUsage;
  if (error.status !== undefined && error.status >= 300 && !error.emitted_deltas) return noUsage;
  return undefined;
}

/**
 * The attempt loop of one request: walks the plan in order inside one budget. Before each attempt it
 * recomputes the money and time left and the attempt's `max_tokens`; an attempt whose worst case could
 * exceed the money left, or that cannot answer in the time left, is skipped with its reason. Each
 * attempt gets an abort signal for the time left. After a failure, decideRetry says whether to retry
 * the same model (after a backoff or Retry-After that fits), fail over, or stop. Throws the last
 * model error, or `policy.budget_exhausted`, as an AttemptsFailedError carrying the decision trace.
 */
export async function runAttempts<T>(
  plan: Plan,
  budget: Budget,
  fn: AttemptFn<T>,
  deps: LoopDeps,
): Promise<AttemptsOutcome<T>> {
  const trace: DecisionAttempt[] = [];
  const blockedProviders = new Set<string>();
  let minContextTokens = 0;
  let lastError: ApiError | undefined;
  // The soonest a held probe may have answered, when a held probe was why a model was skipped.
  let probeHeldMs: number | undefined;
  const skip = (attempt: PlannedAttempt, reason: string, detail: string) =>
    trace.push({
      provider: attempt.provider,
      model: attempt.model,
      outcome: 'skipped',
      latencyMs: 0,
      costUsd: 0,
      reason,
      detail,
    });
  const fail = (error: ApiError): never => {
    throw new AttemptsFailedError(error.code, error.message, {
      details: error.details ?? {},
      decision: decisionOf(plan, trace, budget),
      headers: error.headers,
    });
  };

  for (const [index, attempt] of plan.attempts.entries()) {
    if (blockedProviders.has(attempt.provider)) {
      skip(attempt, 'circuit_open', `provider ${attempt.provider} failed in a way that opens its circuit`);
      continue;
    }
    if (attempt.entry.contextTokens < minContextTokens) {
      skip(
        attempt,
        'context_window',
        `the context overflowed a ${minContextTokens - 1}-token window; this one is ${attempt.entry.contextTokens}`,
      );
      continue;
    }
    if (attempt.probe && deps.claimProbe && !(await deps.claimProbe(attempt))) {
      skip(attempt, 'circuit_open', 'its circuit is half-open and another request holds the single probe');
      const expectedMs = reserveForMs(attempt.speed, plan.needs, attempt.maxTokens);
      probeHeldMs = Math.min(probeHeldMs ?? Number.POSITIVE_INFINITY, expectedMs);
      continue;
    }
    for (let retry = 0; ; retry++) {
      const left = budgetLeft(budget, deps.now());
      const limits = attemptLimits(attempt.entry, plan.needs, left, attempt.speed);
      if (!limits.ok) {
        skip(attempt, limits.reason, limits.detail);
        break;
      }
      const began = deps.now();
      const attemptMs = deps.defaultAttemptMs ?? 300_000;
      // A failed attempt is aborted at once (released), so a silent or stalled upstream does not keep
      // its socket; one that answered drops its timer.
      const deadline = attemptDeadline(Math.min(left.timeMs, attemptMs));
      const { signal } = deadline;
      const next = plan.attempts[index + 1];
      const reserveMs = next ? reserveForMs(next.speed, plan.needs, next.maxTokens) : 0;
      const idle = idleLimitOf({
        expectedMs: expectedSilenceMs(attempt.speed, limits.maxTokens, deps.stream === true),
        timeLeftMs: left.timeMs,
        reserveMs,
      });
      const input: AttemptInput = {
        attempt,
        maxTokens: limits.maxTokens,
        reasoning: limits.reasoning,
        signal,
        retry,
        timeLeftMs: left.timeMs,
        reserveMs,
        idleTimeoutMs: idleTimerMs(idle),
      };
      try {
        const result = await raceDeadline(
          () => fn(input),
          signal,
          () => deadlineError(attempt),
        );
        deadline.clear();
        const latencyMs = deps.now() - began;
        budget.spentUsd += result.costUsd;
        const over = overBudgetWarning({
          provider: attempt.provider,
          model: attempt.model,
          maxTokens: limits.maxTokens,
          worstCaseUsd: limits.worstCaseUsd,
          costUsd: result.costUsd,
          usage: result.usage,
          cutAtCap: result.cutAtCap,
        });
        if (over)
          console.warn(
            JSON.stringify({
              level: 'warn',
              event: 'model.over_budget',
              provider: attempt.provider,
              model: attempt.model,
            }),
          );
        trace.push({
          provider: attempt.provider,
          model: attempt.model,
          outcome: 'ok',
          latencyMs: Math.round(latencyMs),
          costUsd: result.costUsd,
          usage: reasonUsageOf(result.usage),
          retry,
          maxTokens: limits.maxTokens,
          ...(over && { detail: over.message }),
        });
        const generationMs = (result.usage.output_tokens / attempt.speed.outputTokensPerSec) * 1000;
        deps.observe?.({
          provider: attempt.provider,
          model: attempt.model,
          ok: true,
          ttftMs: result.ttftMs ?? Math.max(0, latencyMs - generationMs),
          // Only an attempt that wrote something measures a speed: 0 tokens over any time is not one.
          outputTokensPerSec:
            result.ttftMs !== undefined && latencyMs > result.ttftMs && result.usage.output_tokens > 0
              ? (result.usage.output_tokens / (latencyMs - result.ttftMs)) * 1000
              : undefined,
        });
        return {
          value: result.value,
          attempt,
          usage: result.usage,
          attempts: trace,
          warnings: over ? [over] : [],
        };
      } catch (thrown) {
        deadline.release();
        if (!(thrown instanceof ModelCallError)) throw thrown;
        // Adapters know their wire format (`openai`), not the catalog's name for the provider.
        const error: ModelError = { ...thrown.modelError, provider: attempt.provider, model: attempt.model };
        lastError = new ModelCallError(error, { headers: thrown.headers, cause: thrown });
        const costUsd = billedOnFailure(error, attempt, limits.worstCaseUsd);
        budget.spentUsd += costUsd;
        const decision: RetryDecision = deps.committed?.()
          ? { action: 'stop', reason: 'content was already streamed to the caller; no retry or failover' }
          : decideRetry(error, {
              retries: retry,
              maxRetries: deps.maxRetries,
              timeLeftMs: budgetLeft(budget, deps.now()).timeMs,
              minAttemptMs: attempt.speed.ttftMsP50,
              contextTokens: attempt.entry.contextTokens,
              random: deps.random(),
            });
        trace.push({
          provider: attempt.provider,
          model: attempt.model,
          outcome: 'error',
          errorKind: error.kind,
          latencyMs: Math.round(deps.now() - began),
          costUsd,
          usage: usageOnFailure(error),
          retry,
          maxTokens: limits.maxTokens,
          detail: decision.reason,
        });
        const openProviderCircuit = decision.action === 'failover' && decision.openProviderCircuit === true;
        // Shared health moves only for the model's own faults: a timeout set by this caller's deadline
        // (or by the room a fallback needs) says nothing about the model, and must not let one tenant's
        // tight maxLatencyMs open a circuit for every tenant.
        // A timeout the provider itself answered (408, 504, its own deadline error) carries a status.
        const valvesClock = error.kind === 'timeout' && error.status === undefined;
        const callersClock =
          valvesClock && (deadline.timedOut() ? left.timeMs <= attemptMs : idle.bound !== 'stall');
        if (!callersClock)
          deps.observe?.({
            provider: attempt.provider,
            model: attempt.model,
            ok: false,
            errorKind: error.kind,
            openProviderCircuit,
          });
        if (decision.action === 'stop') return fail(lastError);
        if (decision.action === 'retry') {
          const wait = AbortSignal.timeout(timerMs(budgetLeft(budget, deps.now()).timeMs));
          await deps.sleep(decision.delayMs, wait).catch(() => undefined);
          continue;
        }
        if (openProviderCircuit) blockedProviders.add(attempt.provider);
        if (decision.minContextTokens !== undefined)
          minContextTokens = Math.max(minContextTokens, decision.minContextTokens);
        break;
      }
    }
  }
  if (lastError) fail(lastError);
  if (probeHeldMs !== undefined) {
    // Nothing was tried, so nothing was spent: the caller may retry once the probe has answered.
    const retryAfterS = Math.max(1, Math.ceil(probeHeldMs / 1000));
    return fail(
      new ApiError(
        'limit.circuit_probing',
        'The models left for this request are recovering from failures, and another request holds the single call that tests each one. Retry shortly.',
        { headers: { 'Retry-After': String(retryAfterS) }, details: { retryAfterSeconds: retryAfterS } },
      ),
    );
  }
  return fail(
    new ApiError('policy.budget_exhausted', 'The request’s budget was used up before any model answered.'),
  );
}
