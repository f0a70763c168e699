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
