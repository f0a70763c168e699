import { describe, expect, it } from 'vitest';
import { attemptDeadline } from '../../src/reason/race-deadline';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('attemptDeadline', () => {
  it('aborts with a TimeoutError once its time is up, and says the time ran out', async () => {
    const deadline = attemptDeadline(5);
    expect(deadline.signal.aborted).toBe(false);
    await wait(30);
    expect(deadline.signal.aborted).toBe(true);
    expect((deadline.signal.reason as DOMException).name).toBe('TimeoutError');
    expect(deadline.timedOut()).toBe(true);
  });

  it('aborts at once when released, which is not running out of time, and its timer never fires', async () => {
    const deadline = attemptDeadline(5);
    deadline.release();
    expect(deadline.signal.aborted).toBe(true);
    expect((deadline.signal.reason as DOMException).name).toBe('AbortError');
    await wait(30);
    expect(deadline.timedOut()).toBe(false);
    expect((deadline.signal.reason as DOMException).name).toBe('AbortError');
  });

  it('never aborts once cleared', async () => {
    const deadline = attemptDeadline(5);
    deadline.clear();
    await wait(30);
    expect(deadline.signal.aborted).toBe(false);
    expect(deadline.timedOut()).toBe(false);
  });
});
