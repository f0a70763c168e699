/** Raised inside a call when no byte arrived for `idleTimeoutMs` (before headers or between chunks). */
export class IdleTimeoutError extends Error {
  constructor(readonly idleMs: number) {
    super(`No data arrived for ${idleMs} ms.`);
    this.name = 'IdleTimeoutError';
  }
}

/**
 * Races a promise against the call's signal and an idle timer, so that a read that never settles
 * (a stalled socket) still ends the call. The timer is cleared either way.
 */
export function withinIdle<T>(promise: Promise<T>, signal: AbortSignal, idleMs?: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const timer =
      idleMs === undefined ? undefined : setTimeout(() => finish(new IdleTimeoutError(idleMs)), idleMs);
    const onAbort = () => finish(signal.reason);
    function finish(error?: unknown, value?: T) {
      if (timer !== undefined) clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      if (error === undefined) resolve(value as T);
      else reject(error);
    }
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => finish(undefined, value),
      (error: unknown) => finish(error ?? new Error('read failed')),
    );
  });
}
