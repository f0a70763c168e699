import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { readHealth, resetHealthCache } from '../../src/health/health-client';
import { healthStubOf } from '../../src/health/health-stub';
import { healthKey } from '../../src/health/health-types';
import type { ModelHealth } from '../../src/health/model-health';

/**
 * Gives a sim model an open circuit in the shared health object (three server failures, opened at
 * `openedAt`), then loads it into this isolate's cache as the next request would see it.
 */
export async function seedOpenCircuit(model: string, openedAt: number): Promise<void> {
  const stub = env.MODEL_HEALTH.getByName('global');
  await runInDurableObject(stub, (instance: ModelHealth) => {
    const records = (instance as unknown as { records: Map<string, unknown> }).records;
    records.set(healthKey('sim', model), {
      samples: 0,
      errorRate: 1,
      consecutiveFailures: 3,
      lastErrorKind: 'server',
      openedAt,
      updatedAt: openedAt,
    });
  });
  resetHealthCache();
  await readHealth(healthStubOf(env), Date.now());
}
