import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cpuSecondsOf, treeCpuSeconds } from '../../../bench/lib/processes.js';

// A child that spins for `ms` of CPU and exits.
const spin = (ms: number) =>
  spawnSync(process.execPath, [
    '-e',
    // Spun by its own CPU time, not the clock: on a busy machine a wall-clock spin gets less CPU.
    `const start = process.cpuUsage(); const used = () => { const u = process.cpuUsage(start); return (u.user + u.system) / 1000; }; while (used() < ${ms});`,
  ]);

describe.skipIf(!existsSync('/proc/self/stat'))('treeCpuSeconds', () => {
  it('counts the CPU of a child that has exited, which the process alone does not', () => {
    const treeBefore = treeCpuSeconds(process.pid);
    const ownBefore = cpuSecondsOf([process.pid]);
    spin(400);
    const tree = treeCpuSeconds(process.pid) - treeBefore;
    const own = cpuSecondsOf([process.pid]) - ownBefore;
    expect(tree).toBeGreaterThanOrEqual(0.3);
    expect(own).toBeLessThan(0.3);
  });

  it("is NaN for a process that isn't there", () => {
    expect(treeCpuSeconds(2 ** 22 + 12345)).toBeNaN();
  });
});
