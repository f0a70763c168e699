// What the numbers were measured on, and how busy the machine was.
import { readFileSync } from 'node:fs';
import { cpus, freemem, loadavg, totalmem } from 'node:os';

/** @param {string} path */
const read = (path) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
};

export function describeMachine() {
  const cpuinfo = read('/proc/cpuinfo');
  const model = /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.trim() ?? cpus()[0]?.model ?? 'unknown';
  return {
    cpus: cpus().length,
    cpuModel: model,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    freeMemoryGiB: Math.round((freemem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${process.platform} ${read('/proc/sys/kernel/osrelease').trim()}`.trim(),
  };
}

/** The 1-, 5- and 15-minute load averages: above the CPU count, something else competed for the cores. */
export function loadNow() {
  return loadavg().map((x) => Math.round(x * 100) / 100);
}

/**
 * The CPU seconds every core of the machine has spent busy so far (user, nice, system, irq, softirq and
 * steal in `/proc/stat`; idle and I/O wait are not busy), or NaN where /proc is not there. Read before
 * and after a run, the difference less the measured processes' own CPU is what else ran meanwhile.
 */
export function machineBusySeconds() {
  const line = read('/proc/stat').split('\n')[0] ?? '';
  if (!line.startsWith('cpu ')) return Number.NaN;
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = line
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  // USER_HZ, 100 on Linux, as in processes.js.
  return (user + nice + system + irq + softirq + steal) / 100;
}
