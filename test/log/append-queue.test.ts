import { describe, expect, it } from 'vitest';
import { AppendQueue, type QueuedAppend, type QueueTiming } from '../../src/log/append-queue';

// A clock and turns the test drives: `turn()` resolves when the test runs the next turn, and the
// clock moves only when the test moves it, so every batch boundary below is exact.
function drivenTiming() {
  let now = 0;
  let waiting: Array<() => void> = [];
  const timing: QueueTiming = {
    now: () => now,
    turn: () => new Promise<void>((resolve) => waiting.push(resolve)),
  };
  return {
    timing,
    advance(ms: number) {
      now += ms;
    },
    /** Runs one turn: every waiting turn resolves, then their continuations run. */
    async runTurn() {
      const due = waiting;
      waiting = [];
      for (const resolve of due) resolve();
      for (let i = 0; i < 10; i++) await Promise.resolve();
    },
    get waiting() {
      return waiting.length;
    },
  };
}

function recordingQueue(timing: QueueTiming) {
  const batches: number[][] = [];
  const queue = new AppendQueue<number>(async (batch: QueuedAppend<number>[]) => {
    batches.push(batch.map((w) => w.entry[0] as number));
    for (const [i, w] of batch.entries()) w.resolve(i);
  }, timing);
  const append = (n: number) => queue.enqueue({ entry: new Uint8Array([n]) });
  return { batches, append };
}

describe('AppendQueue', () => {
  it('writes a lone append on the next turn, without waiting for company', async () => {
    const driven = drivenTiming();
    const { batches, append } = recordingQueue(driven.timing);
    const done = append(1);
    expect(batches).toEqual([]);
    await driven.runTurn();
    expect(batches).toEqual([[1]]);
    await expect(done).resolves.toBe(0);
    expect(driven.waiting).toBe(0);
  });

  it('puts the appends of one turn in one batch', async () => {
    const driven = drivenTiming();
    const { batches, append } = recordingQueue(driven.timing);
    const all = [1, 2, 3].map(append);
    await driven.runTurn();
    expect(batches).toEqual([[1, 2, 3]]);
    await expect(Promise.all(all)).resolves.toEqual([0, 1, 2]);
  });

  it('after a busy batch, waits while appends keep arriving and closes on the first turn that brings none', async () => {
    const driven = drivenTiming();
    const { batches, append } = recordingQueue(driven.timing);
    [1, 2, 3, 4].map(append);
    await driven.runTurn();
    expect(batches).toEqual([[1, 2, 3, 4]]); // busy from here on
    append(5);
    await driven.runTurn(); // the batch's first turn
    append(6);
    driven.advance(0.5);
    await driven.runTurn(); // 6 arrived: keep waiting
    append(7);
    driven.advance(0.5);
    await driven.runTurn(); // 7 arrived: keep waiting
    expect(batches).toHaveLength(1);
    driven.advance(0.5);
    await driven.runTurn(); // nothing new: the batch closes
    expect(batches).toEqual([
      [1, 2, 3, 4],
      [5, 6, 7],
    ]);
  });

  it('closes a busy batch at the window even while appends keep arriving', async () => {
    const driven = drivenTiming();
    const { batches, append } = recordingQueue(driven.timing);
    [1, 2, 3, 4].map(append);
    await driven.runTurn();
    let n = 5;
    append(n++);
    await driven.runTurn();
    // One more append every turn, a millisecond apart: the window (3 ms) ends the wait.
    for (let turn = 0; turn < 10 && batches.length === 1; turn++) {
      append(n++);
      driven.advance(1);
      await driven.runTurn();
    }
    expect(batches).toHaveLength(2);
    expect(batches[1]).toEqual([5, 6, 7, 8]);
  });

  it('does not wait for company after a quiet batch', async () => {
    const driven = drivenTiming();
    const { batches, append } = recordingQueue(driven.timing);
    [1, 2, 3].map(append); // three: below the busy threshold
    await driven.runTurn();
    append(4);
    await driven.runTurn();
    expect(batches).toEqual([[1, 2, 3], [4]]);
  });

  it('holds the next batch while one is being written, and takes everything queued meanwhile', async () => {
    const driven = drivenTiming();
    const batches: number[][] = [];
    let release: () => void = () => undefined;
    const queue = new AppendQueue<number>(async (batch) => {
      batches.push(batch.map((w) => w.entry[0] as number));
      if (batches.length === 1) await new Promise<void>((resolve) => (release = resolve));
      for (const w of batch) w.resolve(0);
    }, driven.timing);
    const append = (n: number) => queue.enqueue({ entry: new Uint8Array([n]) });
    append(1);
    await driven.runTurn();
    [2, 3].map(append);
    await driven.runTurn();
    expect(batches).toEqual([[1]]); // the first is still being written
    release();
    for (let i = 0; i < 10; i++) await Promise.resolve();
    await driven.runTurn();
    expect(batches).toEqual([[1], [2, 3]]);
  });
});
