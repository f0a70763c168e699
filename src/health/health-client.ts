import type { HealthView } from '../policy/plan-types';
import { noHealth } from '../policy/plan-types';
import { minSamplesForEstimates } from './apply-observation';
import type { HealthSnapshot, Observation } from './health-types';
import { healthKey } from './health-types';

/** The RPC surface of the ModelHealth Durable Object that requests use. */
export interface HealthStub {
  record(observations: Observation[]): Promise<void> | void;
  snapshot(): Promise<HealthSnapshot> | HealthSnapshot;
  claimProbe(provider: string, model: string): Promise<boolean> | boolean;
}

/** How long an isolate trusts its copy of the shared snapshot. */
export const snapshotTtlMs = 3_000;

let cached: { snapshot: HealthSnapshot; fetchedAt: number } | undefined;

/** Forgets the per-isolate copy (tests). */
export function resetHealthCache(): void {
  cached = undefined;
}

/**
 * The planner's view of a snapshot at `now` (wall clock, as the Durable Object's): a cached snapshot
 * still knows when an open circuit lets its probe through (`retryAt`), so a copy a few seconds old
 * does not keep a recovered model out for longer than its cooldown.
 */
export function healthViewOf(snapshot: HealthSnapshot, now = snapshot.at): HealthView {
  return {
    circuit: (provider, model) => {
      const summary = snapshot.models[healthKey(provider, model)];
      if (!summary) return 'closed';
      if (summary.circuit === 'open' && summary.retryAt !== undefined && now >= summary.retryAt)
        return 'half_open';
      return summary.circuit;
    },
    retryInMs: (provider, model) => {
      let wait: number | undefined;
      for (const key of [healthKey(provider, '*'), healthKey(provider, model)]) {
        const summary = snapshot.models[key];
        if (summary?.circuit !== 'open' || summary.retryAt === undefined) continue;
        wait = Math.max(wait ?? 0, summary.retryAt - now);
      }
      return wait === undefined ? undefined : Math.max(0, wait);
    },
    observedSpeed: (provider, model) => {
      const summary = snapshot.models[healthKey(provider, model)];
      if (!summary || summary.samples < minSamplesForEstimates || summary.ttftMsP50 === undefined)
        return undefined;
      return {
        ttftMsP50: summary.ttftMsP50,
        ttftMsP90: Math.max(summary.ttftMsP50, summary.ttftMsP90 ?? summary.ttftMsP50),
        outputTokensPerSec: summary.outputTokensPerSec,
      };
    },
  };
}

/**
 * Reads shared health through a per-isolate cache of a few seconds. A health store that cannot be
 * reached never fails a request: planning goes on with the catalog's figures and closed circuits.
 */
export async function readHealth(stub: HealthStub, now: number): Promise<HealthSnapshot | undefined> {
  if (cached && now - cached.fetchedAt < snapshotTtlMs) return cached.snapshot;
  try {
    const snapshot = await stub.snapshot();
    cached = { snapshot, fetchedAt: now };
    return snapshot;
  } catch (error) {
    console.warn(JSON.stringify({ level: 'warn', event: 'health.read_failed', error: String(error) }));
    return cached?.snapshot;
  }
}

export function viewOrNone(snapshot: HealthSnapshot | undefined, now?: number): HealthView {
  return snapshot ? healthViewOf(snapshot, now) : noHealth;
}

/**
 * Records outcomes to shared health. When one of them may move a circuit (a failure, or a success of a
 * half-open probe), this isolate's cached copy is dropped once the record is stored, so its next
 * request plans with the new circuit instead of a copy up to `snapshotTtlMs` old.
 */
export async function recordHealth(
  stub: HealthStub,
  observations: Observation[],
  movesCircuit: boolean,
): Promise<void> {
  await stub.record(observations);
  if (movesCircuit) cached = undefined;
}
