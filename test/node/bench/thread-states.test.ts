import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sampleThreadStates, threadShares } from '../../../bench/lib/thread-states.js';

describe('threadShares', () => {
  it('sums the rounds and gives each state its share in percent', () => {
    expect(
      threadShares([
        { running: 60, disk: 30, idle: 10 },
        { running: 140, disk: 10, idle: 50 },
      ]),
    ).toEqual({ running: 66.7, disk: 13.3, idle: 20, samples: 300 });
    expect(threadShares([])).toBeNull();
    expect(threadShares([{ running: 0, disk: 0, idle: 0 }])).toBeNull();
  });
});

describe.skipIf(!existsSync('/proc/self/task'))('sampleThreadStates', () => {
  async function statesOf(script: string) {
    const child = spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
      return await sampleThreadStates(Number(child.pid), 1);
    } finally {
      child.kill('SIGKILL');
    }
  }

  it('sees a thread that spins as running, and one that waits on a timer as idle', async () => {
    const spinning = await statesOf('for (;;) {}');
    const waiting = await statesOf('setInterval(() => {}, 10_000)');
    const spin = threadShares([spinning]);
    const wait = threadShares([waiting]);
    expect(spin?.samples).toBeGreaterThan(50);
    // A shared host may hold the spinning thread off the CPU now and then; it is never asleep.
    expect(spin?.running).toBeGreaterThan(90);
    expect(wait?.idle).toBeGreaterThan(90);
  });

  it('gives no samples for a process that is not there', async () => {
    expect(threadShares([await sampleThreadStates(2 ** 22 + 12345, 0.5)])).toBeNull();
  });
});
