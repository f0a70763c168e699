import type { HealthStub } from '../health/health-client';
import type { Observation } from '../health/health-types';
import { type IssuedRow, issuedReceiptStatements, purgeExpiredReplays } from '../storage/receipts';
import { type UsageRecord, usageInserts } from '../storage/usage-records';
import { createBatcher } from './create-batcher';
import { type RowWrite, writeWithRetries } from './write-with-retries';

// Writes that follow a response (usage records, the receipt rows of requests without a caller
// receiptId, health observations), batched per isolate: concurrent requests share one D1 batch (one
// transaction) or one Durable Object call instead of one each.

/**
 * How long a batch collects before it is written (ms). A D1 batch costs about 0.45 ms of CPU whatever
 * it holds (bench/tools/d1-costs.js), so the window sets how often an isolate pays it: at 16
 * connections, 100 ms instead of 25 took about 5% off the Worker's CPU per request (README, "Where the
 * time goes"). The price is that a receipt row reaches D1 up to a tenth of a second after its answer.
 */
export const WRITE_BEHIND_WINDOW_MS = 100;

/**
 * How long a batch of health observations collects (ms). These are the observations that cannot move
 * a circuit (the ones that can are written at once), so another isolate sees them a second late at
 * worst, and the health object commits once a second per isolate instead of ten times: each commit is
 * a disk sync, and locally, where one thread runs the objects too, the thread waits for each one.
 */
const HEALTH_WINDOW_MS = 1000;
const rowBatchers = new WeakMap<D1Database, ReturnType<typeof createBatcher<RowWrite>>>();
const healthBatchers = new WeakMap<object, ReturnType<typeof createBatcher<HealthWrite>>>();

interface HealthWrite {
  stub: HealthStub;
  observations: Observation[];
}

/** A batch's statements: its receipt rows and its usage rows, as many to a statement as D1 allows. */
function statementsOf(db: D1Database, rows: RowWrite[]): D1PreparedStatement[] {
  const receipts: IssuedRow[] = [];
  const usage: UsageRecord[] = [];
  for (const row of rows) {
    if (row.kind === 'usage') usage.push(row.record);
    else receipts.push(row.row);
  }
  const statements = [...issuedReceiptStatements(db, receipts), ...usageInserts(db, usage)];
  const latest = Math.max(0, ...receipts.map((row) => row.iat));
  if (latest > 0) statements.push(purgeExpiredReplays(db, latest));
  return statements;
}

function rowBatcherOf(db: D1Database) {
  let batcher = rowBatchers.get(db);
  if (!batcher) {
    batcher = createBatcher<RowWrite>(
      (rows) => writeWithRetries(rows, () => db.batch(statementsOf(db, rows)).then(() => undefined)),
      WRITE_BEHIND_WINDOW_MS,
    );
    rowBatchers.set(db, batcher);
  }
  return batcher;
}

/**
 * Puts the record in this isolate's next row batch. Hand the result to waitUntil: it is the batch's
 * write (stored, or after its retries recorded as lost) when this record opened the batch, and
 * undefined when it joined one, which the request that opened it keeps alive.
 */
export function writeUsage(db: D1Database, record: UsageRecord): Promise<void> | undefined {
  return rowBatcherOf(db).add({ kind: 'usage', record });
}

/**
 * The receipt row of a request without a caller receiptId, in the same D1 batch as the usage rows.
 * Nobody can ask to replay a Valve-generated id before its answer has left, so the row need not be
 * written before it.
 */
export function writeReceiptRow(db: D1Database, row: IssuedRow): Promise<void> | undefined {
  return rowBatcherOf(db).add({ kind: 'receipt', row });
}

/**
 * Whether a row this isolate accepted is not written yet: a read of a receipt that is not found reads
 * again while it is, so a caller sees its own receipt at once when the same isolate answers.
 */
export function rowsPending(db: D1Database): boolean {
  return rowBatchers.get(db)?.pending() ?? false;
}

/**
 * Observations that cannot move a circuit, batched per health namespace; the ones that can are written
 * at once by the caller (recordHealth), so the next request plans with the new circuit. Each batch is
 * written through the stub of the request that writes it: a stub belongs to the request that made it.
 */
export function writeHealth(
  namespace: object,
  stub: HealthStub,
  observations: Observation[],
): Promise<void> | undefined {
  let batcher = healthBatchers.get(namespace);
  if (!batcher) {
    // Through the stub of the request that writes the batch (the opener, or the one that filled it).
    batcher = createBatcher<HealthWrite>(async (writes, writer) => {
      await writer.stub.record(writes.flatMap((w) => w.observations));
    }, HEALTH_WINDOW_MS);
    healthBatchers.set(namespace, batcher);
  }
  return batcher.add({ stub, observations });
}
