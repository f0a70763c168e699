import type { Context } from 'hono';
import type { AppEnv } from '../env';

/**
 * Work that must not hold up the response (health updates): `waitUntil` when the runtime gives one.
 * Work that answers undefined has nothing left to keep alive (a row that joined another request's batch).
 */
export function runInBackground(c: Context<AppEnv>, work: () => Promise<unknown> | undefined): void {
  const started = work();
  if (started === undefined) return;
  const promise = started.catch((error: unknown) => {
    console.warn(JSON.stringify({ level: 'warn', event: 'background.failed', error: String(error) }));
  });
  try {
    c.executionCtx.waitUntil(promise);
  } catch {
    // No execution context (app.request in a unit test): the promise still runs to completion.
  }
}
