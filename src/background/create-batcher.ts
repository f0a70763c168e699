/**
 * Collects items from concurrent requests for a short window and writes them in one call. `add`
 * returns the promise of the write that will carry the item, so each request can hand it to
 * `waitUntil`: the isolate stays alive until everything it accepted is written, and nothing is lost.
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
    add(item: T): Promise<void> {
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
      }
      const batch = pending;
      batch.items.push(item);
      if (batch.items.length >= maxItems) flush();
      return batch.done;
    },
  };
}
