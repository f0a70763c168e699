import type { DecisionAttempt } from '../contracts/reason-response';
import type { Observation } from '../health/health-types';
import type { ReasoningSetting } from '../model/model-request';
import type { ModelWarning, Usage } from '../model/model-response';
import type { PlannedAttempt } from '../policy/plan-types';

// The attempt loop's contract (run-attempts.ts): what an attempt is given, what it gives back, and
// what the loop needs from outside. Apart from the loop so its steps can share them.

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
