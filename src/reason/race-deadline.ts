import type { PlannedAttempt } from '../policy/plan-types';
import { type ModelCallError, modelFailure } from '../providers/model-error';

// The attempt loop's deadline: a timer for any time left, and a race that gives up at the deadline
// even when the adapter does not.

/** A timer length that AbortSignal.timeout accepts, for any time left (even an unbounded one). */
export function timerMs(ms: number): number {
  return Math.max(1, Math.min(2_147_483_647, Math.floor(ms)));
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
