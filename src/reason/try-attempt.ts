import type { ModelError } from '../model/model-error';
import type { IdleLimit } from '../policy/stall-limit';
import { ModelCallError } from '../providers/model-error';
import type { AttemptFn, AttemptInput, AttemptResult, LoopDeps } from './attempt-types';
import type { PlannedTry } from './plan-attempt';
import { attemptDeadline, deadlineError, raceDeadline } from './race-deadline';

/** How one try ended: its result, or the model error it failed with (renamed to the catalog's provider). */
export type Tried<T> =
  | { ok: true; result: AttemptResult<T>; latencyMs: number }
  | {
      ok: false;
      error: ModelError;
      /** What was thrown, whose headers (Retry-After) the request's error keeps. */
      thrown: ModelCallError;
      /** `now()` when the try began. */
      began: number;
      /** Valve's own deadline for the attempt went off (rather than the attempt failing by itself). */
      timedOut: boolean;
    };

/**
 * The idle limit the adapter arms, or undefined when it could never fire first: an idle limit bound
 * by the caller's deadline is the time left, and the attempt's own timer (at most the time left) goes
 * off first or at the same time. Two timers a call fewer (headers, then body) for every attempt with
 * no fallback after it.
 */
function idleTimerMs(idle: IdleLimit): number | undefined {
  return idle.bound === 'deadline' ? undefined : idle.ms;
}

/**
 * Runs one planned try under its own deadline (the time left, or `attemptMs` without one), given up at
 * the deadline even if the attempt ignores its signal. Anything but a model error is thrown on.
 */
export async function tryAttempt<T>(
  fn: AttemptFn<T>,
  planned: PlannedTry,
  deps: Pick<LoopDeps, 'now'>,
): Promise<Tried<T>> {
  const { attempt, limits } = planned;
  const began = deps.now();
  // A failed attempt is aborted at once (released), so a silent or stalled upstream does not keep
  // its socket; one that answered drops its timer.
  const deadline = attemptDeadline(Math.min(planned.timeLeftMs, planned.attemptMs));
  const input: AttemptInput = {
    attempt,
    maxTokens: limits.maxTokens,
    reasoning: limits.reasoning,
    signal: deadline.signal,
    retry: planned.retry,
    timeLeftMs: planned.timeLeftMs,
    reserveMs: planned.reserveMs,
    idleTimeoutMs: idleTimerMs(planned.idle),
  };
  try {
    const result = await raceDeadline(
      () => fn(input),
      deadline.signal,
      () => deadlineError(attempt),
    );
    deadline.clear();
    return { ok: true, result, latencyMs: deps.now() - began };
  } catch (thrown) {
    deadline.release();
    if (!(thrown instanceof ModelCallError)) throw thrown;
    // Adapters know their wire format (`openai`), not the catalog's name for the provider.
    const error: ModelError = { ...thrown.modelError, provider: attempt.provider, model: attempt.model };
    return { ok: false, error, thrown, began, timedOut: deadline.timedOut() };
  }
}
