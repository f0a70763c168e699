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

  return {
    add(item: T): Promise<void> {
      if (!pending) {
        let release = () => {};
        const started = new Promise<void>((resolve) => {
          release = resolve;
        });
        const items: T[] = [];
        const done = started.then(() => write(items));
        pending = { items, done, timer: setTimeout(flush, windowMs), release };
      }
      const batch = pending;
      batch.items.push(item);
      if (batch.items.length >= maxItems) flush();
      return batch.done;
    },
  };
}
