import { describe, expect, it } from 'vitest';
import { createBatcher } from '../../src/background/create-batcher';

describe('createBatcher', () => {
  it('writes items added within the window in one call; only the add that opened it gets the write', async () => {
    const writes: number[][] = [];
    const batcher = createBatcher<number>(async (items) => {
      writes.push([...items]);
    }, 20);
    const opened = batcher.add(1);
    // The joiners ride along: nothing for them to wait on, the opener's request keeps the batch alive.
    expect([batcher.add(2), batcher.add(3)]).toEqual([undefined, undefined]);
    expect(opened).toBeInstanceOf(Promise);
    expect(writes).toEqual([]);
    await opened;
    expect(writes).toEqual([[1, 2, 3]]);
    const next = batcher.add(4);
    expect(next).toBeInstanceOf(Promise);
    await next;
    expect(writes).toEqual([[1, 2, 3], [4]]);
  });

  it('writes a full batch at once, from the add that filled it (its item names the writer), which gets the write', async () => {
    const writes: number[][] = [];
    const writers: number[] = [];
    const batcher = createBatcher<number>(
      async (items, writer) => {
        writes.push([...items]);
        writers.push(writer);
      },
      300,
      2,
    );
    const opened = batcher.add(1);
    const filled = batcher.add(2);
    expect(filled).toBeInstanceOf(Promise);
    await filled;
    expect(writes).toEqual([[1, 2]]);
    // Written with the filler's I/O: the opener's request cannot settle, or do, anything for it.
    expect(writers).toEqual([2]);
    // The opener's promise settles when its window ends, in its own request, with no second write.
    await opened;
    expect(writes).toEqual([[1, 2]]);
    expect(batcher.pending()).toBe(false);
  });

  it('writes a batch its opener filled at once, the opener its writer', async () => {
    const writers: number[] = [];
    const batcher = createBatcher<number>(
      async (_items, writer) => {
        writers.push(writer);
      },
      60_000,
      1,
    );
    await batcher.add(7);
    expect(writers).toEqual([7]);
    expect(batcher.pending()).toBe(false);
  });

  it('writes a batch whose window ended from its opener', async () => {
    const writers: number[] = [];
    const batcher = createBatcher<number>(async (_items, writer) => {
      writers.push(writer);
    }, 10);
    const opened = batcher.add(1);
    batcher.add(2);
    await opened;
    expect(writers).toEqual([1]);
  });

  it('written() waits for every batch not yet written, whoever opened it', async () => {
    const writes: number[][] = [];
    const batcher = createBatcher<number>(async (items) => {
      writes.push([...items]);
    }, 10);
    batcher.add(1);
    batcher.add(2);
    await batcher.written();
    expect(writes).toEqual([[1, 2]]);
  });

  it('says whether anything added is not written yet, without making the caller wait on it', async () => {
    let finish = () => {};
    const batcher = createBatcher<number>(
      () =>
        new Promise<void>((resolve) => {
          finish = resolve;
        }),
      5,
    );
    expect(batcher.pending()).toBe(false);
    const opened = batcher.add(1);
    expect(batcher.pending()).toBe(true); // collecting
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(batcher.pending()).toBe(true); // writing
    finish();
    await opened;
    expect(batcher.pending()).toBe(false);
  });

  it('rejects the write of a batch that fails, so the request that opened it can log it', async () => {
    const batcher = createBatcher<number>(async () => {
      throw new Error('disk full');
    }, 5);
    const opened = batcher.add(1);
    batcher.add(2);
    await expect(opened).rejects.toThrow('disk full');
  });
});
