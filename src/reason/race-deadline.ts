import type { PlannedAttempt } from '../policy/plan-types';
import { type ModelCallError, modelFailure } from '../providers/model-error';

// The attempt loop's deadline: a timer for any time left, and a race that gives up at the deadline
// even when the adapter does not.

/** A timer length that AbortSignal.timeout accepts, for any time left (even an unbounded one). */
export function timerMs(ms: number): number {
  return Math.max(1, Math.min(2_147_483_647, Math.floor(ms)));
}

/** An attempt's abort signal: aborted with a TimeoutError once its time is up, or at once by `release`. */
export interface AttemptDeadline {
  readonly signal: AbortSignal;
  /** Whether the time ran out (rather than the attempt being released). */
  timedOut(): boolean;
  /** Aborts the attempt now: a failed one lets go of its socket. */
  release(): void;
  /** Drops the timer of an attempt that is over. */
  clear(): void;
}

/**
 * One controller and one timer per attempt, the timer cleared when the attempt ends: not
 * `AbortSignal.timeout` (whose timer outlives an attempt that answered) joined by `AbortSignal.any`
 * to a second controller, three native signals an attempt.
 */
export function attemptDeadline(ms: number): AttemptDeadline {
  const controller = new AbortController();
  let ranOut = false;
  const timer = setTimeout(() => {
    ranOut = true;
    controller.abort(new DOMException('The attempt ran out of time.', 'TimeoutError'));
  }, timerMs(ms));
  return {
    signal: controller.signal,
    timedOut: () => ranOut,
    release: () => {
      clearTimeout(timer);
      controller.abort();
    },
    clear: () => clearTimeout(timer),
  };
}

export function deadlineError(attempt: PlannedAttempt): ModelCallError {
  return modelFailure({
    kind: 'timeout',
    message: `${attempt.provider}/${attempt.model} did not answer within the time left.`,
    provider: attempt.provider,
    model: attempt.model,
    dispatch: 'sent',
  });
}

/** Runs `fn`, but gives up at the signal even if `fn` ignores it: the deadline is Valve's, not the adapter's. */
export function raceDeadline<T>(fn: () => Promise<T>, signal: AbortSignal, onAbort: () => Error): Promise<T> {
  if (signal.aborted) return Promise.reject(onAbort());
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(onAbort());
    signal.addEventListener('abort', abort, { once: true });
    fn().then(
      (value) => {
        signal.removeEventListener('abort', abort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', abort);
        reject(signal.aborted ? onAbort() : error);
      },
    );
  });
}
