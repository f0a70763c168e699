import type { HealthStub } from '../health/health-client';
import type { Observation } from '../health/health-types';
import { insertUsageRecords, type UsageRecord } from '../storage/usage-records';
import { createBatcher } from './create-batcher';

// Writes that follow a response (usage records, health observations), batched per isolate: concurrent
// requests share one D1 transaction or one Durable Object call instead of one each.

const windowMs = 25;
const usageBatchers = new WeakMap<D1Database, ReturnType<typeof createBatcher<UsageRecord>>>();
interface HealthBatch {
  stub: HealthStub;
  observations: Observation[];
}
const healthBatchers = new WeakMap<object, ReturnType<typeof createBatcher<HealthBatch>>>();

/** Resolves once the record is stored; hand it to waitUntil. */
export function writeUsage(db: D1Database, record: UsageRecord): Promise<void> {
  let batcher = usageBatchers.get(db);
  if (!batcher) {
    batcher = createBatcher<UsageRecord>((records) => insertUsageRecords(db, records), windowMs);
    usageBatchers.set(db, batcher);
  }
  return batcher.add(record);
}

/**
 * Observations that cannot move a circuit, batched per health namespace; the ones that can are written
 * at once by the caller (recordHealth), so the next request plans with the new circuit. A Durable
 * Object stub belongs to the request that made it (workerd refuses I/O through it from any other), so
 * each batch is written through the stub of the request that opened it, whose timer also flushes it.
 */
export function writeHealth(namespace: object, stub: HealthStub, observations: Observation[]): Promise<void> {
  let batcher = healthBatchers.get(namespace);
  if (!batcher) {
    batcher = createBatcher<HealthBatch>(async (batches) => {
      const opener = batches[0];
      if (opener) await opener.stub.record(batches.flatMap((batch) => batch.observations));
    }, windowMs);
    healthBatchers.set(namespace, batcher);
  }
  return batcher.add({ stub, observations });
}
