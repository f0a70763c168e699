/**
 * Collects items from concurrent requests for a short window and writes them in one call. The request
 * whose item opens a batch gets the batch's write from `add`, to hand to `waitUntil`: its request stays
 * alive until the batch is written, and so every item in it is kept, not only its own. The requests
 * that join an open batch get nothing to wait on: none of them waits on another request's promise,
 * which in workerd costs each of them a cross-request resolution and keeps its context alive for the
 * window (measured: about 0.15 ms of CPU per request at 16 connections).
 */
export function createBatcher<T>(write: (items: T[]) => Promise<void>, windowMs: number, maxItems = 200) {
  let pending:
    | { items: T[]; done: Promise<void>; timer: ReturnType<typeof setTimeout>; release: () => void }
    | undefined;

  const flush = () => {
    const batch = pending;
    if (!batch) return;
    pending = undefined;
    clearTimeout(batch.timer);
    batch.release();
  };

  /** Batches not yet written (collecting or writing). */
  const unwritten = new Set<Promise<void>>();

  return {
    /** Resolves once every item added so far is written (or given up): read-your-writes in this isolate. */
    // It waits for the window rather than flushing: a batch is written in the context of the request
    // that opened it, which keeps it alive and owns its I/O.
    async written(): Promise<void> {
      await Promise.allSettled([...unwritten]);
    },
    /** Whether any item added so far is not written yet (collecting or writing). */
    pending(): boolean {
      return unwritten.size > 0;
    },
    /** The batch's write if this item opened it (keep it alive), else undefined (it rides along). */
    add(item: T): Promise<void> | undefined {
      let opened = false;
      if (!pending) {
        let release = () => {};
        const started = new Promise<void>((resolve) => {
          release = resolve;
        });
        const items: T[] = [];
        const done = started.then(() => write(items));
        unwritten.add(done);
        const forget = () => unwritten.delete(done);
        done.then(forget, forget);
        pending = { items, done, timer: setTimeout(flush, windowMs), release };
        opened = true;
      }
      const batch = pending;
      batch.items.push(item);
      if (batch.items.length >= maxItems) flush();
      return opened ? batch.done : undefined;
    },
  };
}
