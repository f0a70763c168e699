// When the log writes: appends queue up and go out in batches, one batch in flight at a time. What a
// batch writes (the tree, the checkpoint, the proofs) is the log object's; this holds only the queue
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
 * How long a batch waits for more appends once the log is busy, that is when its last batch held at
 * least BUSY_BATCH entries. Each batch is one commit, one checkpoint signature and one wait for
 * durability, and those cost far more than its entries: at 16 connections, waiting 3 ms took the
 * Worker's CPU per request from 0.95 to 0.81 ms, and the log's batch work from 0.14 ms per request to
 * within noise (README, "Where the time goes"). A quieter log writes on the next turn, so a lone
 * request never waits for company: at 200 requests a second two or three appends often meet, and
 * holding the next batch for them cost the median request a millisecond.
 */
const BUSY_BATCH = 4;
const BUSY_BATCH_WINDOW_MS = 3;

export class AppendQueue<Result> {
  private pending: QueuedAppend<Result>[] = [];
  private flushing = false;
  private lastBatchSize = 0;

  /** `write` settles every append of the batch it is given (each resolved or rejected). */
  constructor(private readonly write: (batch: QueuedAppend<Result>[]) => Promise<void>) {}

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
        // busy log's batch waits a few milliseconds more.
        const window = this.lastBatchSize >= BUSY_BATCH ? BUSY_BATCH_WINDOW_MS : 0;
        await new Promise((resolve) => setTimeout(resolve, window));
        const batch = this.pending.splice(0, MAX_BATCH);
        this.lastBatchSize = batch.length;
        await this.write(batch);
      }
    } finally {
      this.flushing = false;
    }
  }
}
