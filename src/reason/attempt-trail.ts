import type { DecisionAttempt } from '../contracts/reason-response';
import { ApiError } from '../errors';
import type { Budget } from '../policy/budget';
import type { RetryDecision } from '../policy/decide-retry';
import type { Plan, PlannedAttempt } from '../policy/plan-types';
import { reserveForMs } from '../policy/stall-limit';
import { AttemptsFailedError } from './attempts-failed-error';
import { decisionOf } from './decision-of';

/**
 * What the attempt loop remembers across models: the decision trace, the providers whose circuit a
 * failure opened, the least context window a later model needs, the last error, and how soon a held
 * probe may have answered. It decides whether a model is worth starting and how the loop gives up.
 */
export class AttemptTrail {
  readonly trace: DecisionAttempt[] = [];
  lastError: ApiError | undefined;
  private readonly blockedProviders = new Set<string>();
  private minContextTokens = 0;
  // The soonest a held probe may have answered, when a held probe was why a model was skipped.
  private probeHeldMs: number | undefined;

  constructor(
    private readonly plan: Plan,
    private readonly budget: Budget,
  ) {}

  skip(attempt: PlannedAttempt, reason: string, detail: string): void {
    this.trace.push({
      provider: attempt.provider,
      model: attempt.model,
      outcome: 'skipped',
      latencyMs: 0,
      costUsd: 0,
      reason,
      detail,
    });
  }

  /** Whether `attempt` may start: its provider's circuit still closed, its window large enough, its probe held. */
  async mayStart(attempt: PlannedAttempt, claimProbe?: (attempt: PlannedAttempt) => Promise<boolean>) {
    if (this.blockedProviders.has(attempt.provider)) {
      this.skip(
        attempt,
        'circuit_open',
        `provider ${attempt.provider} failed in a way that opens its circuit`,
      );
      return false;
    }
    if (attempt.entry.contextTokens < this.minContextTokens) {
      this.skip(
        attempt,
        'context_window',
        `the context overflowed a ${this.minContextTokens - 1}-token window; this one is ${attempt.entry.contextTokens}`,
      );
      return false;
    }
    if (attempt.probe && claimProbe && !(await claimProbe(attempt))) {
      this.skip(
        attempt,
        'circuit_open',
        'its circuit is half-open and another request holds the single probe',
      );
      const expectedMs = reserveForMs(attempt.speed, this.plan.needs, attempt.maxTokens);
      this.probeHeldMs = Math.min(this.probeHeldMs ?? Number.POSITIVE_INFINITY, expectedMs);
      return false;
    }
    return true;
  }

  /** Remembers what a failover rules out for the models after `attempt`. */
  failedOver(attempt: PlannedAttempt, decision: Extract<RetryDecision, { action: 'failover' }>): void {
    if (decision.openProviderCircuit === true) this.blockedProviders.add(attempt.provider);
    if (decision.minContextTokens !== undefined)
      this.minContextTokens = Math.max(this.minContextTokens, decision.minContextTokens);
  }

  /** Ends the request with `error` and the decision trace beside it. */
  fail(error: ApiError): never {
    throw new AttemptsFailedError(error.code, error.message, {
      details: error.details ?? {},
      decision: decisionOf(this.plan, this.trace, this.budget),
      headers: error.headers,
    });
  }

  /** Ends a request no model answered: the last error, a held probe's retry, or the spent budget. */
  giveUp(): never {
    if (this.lastError) return this.fail(this.lastError);
    if (this.probeHeldMs !== undefined) {
      // Nothing was tried, so nothing was spent: the caller may retry once the probe has answered.
      const retryAfterS = Math.max(1, Math.ceil(this.probeHeldMs / 1000));
      return this.fail(
        new ApiError(
          'limit.circuit_probing',
          'The models left for this request are recovering from failures, and another request holds the single call that tests each one. Retry shortly.',
          { headers: { 'Retry-After': String(retryAfterS) }, details: { retryAfterSeconds: retryAfterS } },
        ),
      );
    }
    return this.fail(
      new ApiError('policy.budget_exhausted', 'The request’s budget was used up before any model answered.'),
    );
  }
}
