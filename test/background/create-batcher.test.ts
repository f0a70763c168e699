import { describe, expect, it } from 'vitest';
import { createBatcher } from '../../src/background/create-batcher';

describe('createBatcher', () => {
  it('writes items added within the window in one call, and each add resolves once its item is written', async () => {
    const writes: number[][] = [];
    const batcher = createBatcher<number>(async (items) => {
      writes.push([...items]);
    }, 20);
    const done = [batcher.add(1), batcher.add(2), batcher.add(3)];
    expect(writes).toEqual([]);
    await Promise.all(done);
    expect(writes).toEqual([[1, 2, 3]]);
    await batcher.add(4);
    expect(writes).toEqual([[1, 2, 3], [4]]);
  });

  it('writes at once when the batch is full', async () => {
    const writes: number[][] = [];
    const batcher = createBatcher<number>(
      async (items) => {
        writes.push([...items]);
      },
      60_000,
      2,
    );
    await Promise.all([batcher.add(1), batcher.add(2)]);
    expect(writes).toEqual([[1, 2]]);
  });

  it('rejects every add of a batch whose write fails, so the caller can log it', async () => {
    const batcher = createBatcher<number>(async () => {
      throw new Error('disk full');
    }, 5);
    await expect(Promise.all([batcher.add(1), batcher.add(2)])).rejects.toThrow('disk full');
  });
});
