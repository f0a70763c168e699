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

/** The planner's view of a snapshot. */
export function healthViewOf(snapshot: HealthSnapshot): HealthView {
  return {
    circuit: (provider, model) => snapshot.models[healthKey(provider, model)]?.circuit ?? 'closed',
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

export function viewOrNone(snapshot: HealthSnapshot | undefined): HealthView {
  return snapshot ? healthViewOf(snapshot) : noHealth;
}
