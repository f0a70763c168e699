#!/usr/bin/env node
// What a server's main thread did during a load run, sampled from /proc: running (or ready to run),
// waiting on the disk (state D: Valve's local SQLite syncs, which in workerd block the one thread that
// also serves the Worker), or idle (waiting for work). Locally a request's throughput is bounded by
// that thread, so a run whose thread spent a fifth of its time in disk waits reads a fifth lower than
// its CPU per request predicts; in production the objects and D1 run elsewhere and no sync blocks the
// Worker. The load generator (wrk) runs synchronously, so the sampling runs in a child process: this
// file, run as a script with the pid and the seconds to sample, prints one JSON line of counts.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { statFields } from './processes.js';

/** @typedef {{ running: number, disk: number, idle: number }} ThreadStates */

const SAMPLE_MS = 2;

/** The one-letter state of the main thread of process `pid`, or null once it is gone. */
function stateOf(/** @type {number} */ pid) {
  return statFields(`/proc/${pid}/task/${pid}/stat`)?.[0] ?? null;
}

/** Samples the main thread of `pid` for `seconds`: counts of running, disk-wait and idle samples. */
async function sample(/** @type {number} */ pid, /** @type {number} */ seconds) {
  /** @type {ThreadStates} */
  const counts = { running: 0, disk: 0, idle: 0 };
  const end = Date.now() + seconds * 1000;
  while (Date.now() < end) {
    const state = stateOf(pid);
    if (state === null) break;
    if (state === 'R') counts.running++;
    else if (state === 'D') counts.disk++;
    else counts.idle++;
    await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
  }
  return counts;
}

/**
 * Starts sampling the main thread of `pid` for `seconds` in a child process; the promise gives the
 * counts (all zero where /proc is not there).
 * @param {number} pid
 * @param {number} seconds
 * @returns {Promise<ThreadStates>}
 */
export function sampleThreadStates(pid, seconds) {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), String(pid), String(seconds)], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let out = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
  });
  return new Promise((resolve) => {
    child.on('close', () => {
      try {
        resolve(JSON.parse(out));
      } catch {
        resolve({ running: 0, disk: 0, idle: 0 });
      }
    });
  });
}

/** Sums the counts of several runs and gives each state's share in percent, or null without samples. */
export function threadShares(/** @type {ThreadStates[]} */ runs) {
  const sum = runs.reduce(
    (a, r) => ({ running: a.running + r.running, disk: a.disk + r.disk, idle: a.idle + r.idle }),
    { running: 0, disk: 0, idle: 0 },
  );
  const total = sum.running + sum.disk + sum.idle;
  if (total === 0) return null;
  const pct = (/** @type {number} */ n) => Math.round((n / total) * 1000) / 10;
  return { running: pct(sum.running), disk: pct(sum.disk), idle: pct(sum.idle), samples: total };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const pid = Number(process.argv[2]);
  const seconds = Number(process.argv[3]);
  if (!Number.isInteger(pid) || !(seconds > 0)) {
    console.error('usage: thread-states.js <pid> <seconds>');
    process.exit(2);
  }
  console.log(JSON.stringify(await sample(pid, seconds)));
}
