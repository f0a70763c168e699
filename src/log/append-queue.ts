// When the log writes: appends queue up and go out in batches, one batch in flight at a time. What a
// batch writes (the tree, the checkpoint, the proofs) is log-batches.ts's; this holds only the queue
// and the moment each batch leaves.

/** One append waiting for its batch. */
export interface QueuedAppend<Result> {
  entry: Uint8Array;
  /** Set for appendOnce: the leaf hash whose index is recorded with the batch. */
  once?: Uint8Array;
  /** Set for appendClaimed: records the holder's claim in the batch's transaction. */
  record?: (index: number) => void;
  resolve: (result: Result) => void;
  reject: (error: unknown) => void;
}

const MAX_BATCH = 4096;

/**
 * When a batch closes once the log is busy, that is when its last batch held at least BUSY_BATCH
 * entries: it keeps collecting while appends keep arriving, a turn of the event loop at a time, and
 * closes on the first turn that brings none, or BUSY_BATCH_WINDOW_MS after it opened. Each batch is
 * one commit, one checkpoint signature and one wait for durability, which cost far more than its
 * entries, so a busy log should not write one per append; but a batch that waits once no append is
 * on its way only holds the requests in it. Locally, where one thread runs the Worker and the log,
 * a fixed 3 ms wait left that thread idle a tenth of the time at 16 connections, every request
 * parked on the log; closing on the first quiet turn took that to 1% and throughput up by 10–17% in
 * three runs of bench/tools/seq-bundles.js (1,312 → 1,438 requests/s in the last), with the same CPU
 * per request (README, "The log: appends per second, and shards"). A quieter log writes on
 * the next turn, so a lone request never waits for company: at 200 requests a second two or three
 * appends often meet, and holding the next batch for them cost the median request a millisecond.
 */
const BUSY_BATCH = 4;
const BUSY_BATCH_WINDOW_MS = 3;

/** The queue's clock and its turns of the event loop (given by tests, which drive them). */
export interface QueueTiming {
  now: () => number;
  /** Resolves on a later turn of the event loop, once the I/O already due has been delivered. */
  turn: () => Promise<void>;
}

const eventLoop: QueueTiming = {
  now: () => performance.now(),
  turn: () => new Promise((resolve) => setTimeout(resolve, 0)),
};

export class AppendQueue<Result> {
  private pending: QueuedAppend<Result>[] = [];
  private flushing = false;
  private lastBatchSize = 0;

  /** `write` settles every append of the batch it is given (each resolved or rejected). */
  constructor(
    private readonly write: (batch: QueuedAppend<Result>[]) => Promise<void>,
    private readonly timing: QueueTiming = eventLoop,
  ) {}

  /** Queues an append for the next batch, starting the flush loop if it is idle. */
  enqueue(append: Omit<QueuedAppend<Result>, 'resolve' | 'reject'>): Promise<Result> {
    return new Promise((resolve, reject) => {
      this.pending.push({ ...append, resolve, reject });
      if (!this.flushing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.pending.length > 0) {
        // One turn of the event loop lets appends already queued behind this one join its batch; a
        // busy log's batch takes more turns while they keep bringing appends.
        await this.timing.turn();
        if (this.lastBatchSize >= BUSY_BATCH) await this.collect();
        const batch = this.pending.splice(0, MAX_BATCH);
        this.lastBatchSize = batch.length;
        await this.write(batch);
      }
    } finally {
      this.flushing = false;
    }
  }

  /** Waits while each turn brings more appends, until the window ends or the batch is full. */
  private async collect(): Promise<void> {
    const closes = this.timing.now() + BUSY_BATCH_WINDOW_MS;
    let seen = this.pending.length;
    while (seen < MAX_BATCH && this.timing.now() < closes) {
      await this.timing.turn();
      if (this.pending.length === seen) return;
      seen = this.pending.length;
    }
  }
}
