import type { IssuedRow } from '../storage/receipts';
import type { UsageRecord } from '../storage/usage-records';

// A batch of rows written behind the answer must not be lost silently: a failed write is retried with
// back-off, and one that still fails is logged as an error line naming every receipt it held (with the
// metadata to re-insert it; rows hold no content) and counted in the isolate's figures that GET /health
// shows. The receipt itself is not lost: the caller holds it and its entry is in the log.

export type RowWrite = { kind: 'usage'; record: UsageRecord } | { kind: 'receipt'; row: IssuedRow };

/** Back-off before each retry (ms): three retries, then the batch is recorded as lost. */
export const retryDelaysMs = [50, 250, 1_000];

export interface WriteBehindFigures {
  /** Batches that failed at least once. */
  retriedBatches: number;
  /** Receipt rows and usage records given up after every retry. */
  lostReceipts: number;
  lostUsageRecords: number;
}

const figures: WriteBehindFigures = { retriedBatches: 0, lostReceipts: 0, lostUsageRecords: 0 };

export function writeBehindFigures(): WriteBehindFigures {
  return { ...figures };
}

/** Zeroes the figures (tests). */
export function resetWriteBehindFigures(): void {
  figures.retriedBatches = 0;
  figures.lostReceipts = 0;
  figures.lostUsageRecords = 0;
}

export async function writeWithRetries(
  rows: RowWrite[],
  write: () => Promise<void>,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<void> {
  let lastError: unknown;
  for (let attempt = 0; attempt <= retryDelaysMs.length; attempt++) {
    if (attempt > 0) {
      if (attempt === 1) figures.retriedBatches++;
      await sleep(retryDelaysMs[attempt - 1] ?? 0);
    }
    try {
      await write();
      return;
    } catch (error) {
      lastError = error;
    }
  }
  const receipts = rows.flatMap((r) => (r.kind === 'receipt' ? [r.row] : []));
  figures.lostReceipts += receipts.length;
  figures.lostUsageRecords += rows.length - receipts.length;
  console.error(
    JSON.stringify({
      level: 'error',
      event: 'write_behind.lost',
      error: String(lastError),
      usageRecords: rows.length - receipts.length,
      receipts: receipts.map(({ replay: _replay, ...meta }) => meta),
    }),
  );
}
