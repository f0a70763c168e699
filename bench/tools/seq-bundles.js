#!/usr/bin/env node
// Deploy bundles of Valve served one at a time, in turns, for what `ab-bundles.js` cannot show:
// throughput, tails and the idle time of workerd's main thread. ab-bundles loads two bundles at once,
// so each one's requests per second are bounded by the other's; a change that stops the one thread
// from idling (a batch that waits for company it will not get, say) moves throughput and not CPU per
// request. Each bundle gets its own workerd on the same fake upstream; every round loads each one
// alone with wrk at 16 connections, the order reversed each round, and samples its main thread
// (running, disk wait, idle). Build a bundle with `npx wrangler deploy --dry-run --outdir DIR`.
// Usage: node bench/tools/seq-bundles.js [rounds, default 4] [seconds, default 5] NAME=DIR NAME=DIR …
import { join } from 'node:path';
import { startBundle, startUpstream } from '../lib/bench-servers.js';
import { cpuSecondsOf } from '../lib/processes.js';
import { sampleThreadStates, threadShares } from '../lib/thread-states.js';
import { startWrk } from '../lib/wrk.js';

const root = join(import.meta.dirname, '../..');
const positional = process.argv.slice(2).filter((a) => !a.includes('='));
const specs = process.argv
  .slice(2)
  .filter((a) => a.includes('='))
  .map((a) => a.split('='));
const rounds = Number(positional[0] ?? 4);
const seconds = Number(positional[1] ?? 5);
if (specs.length < 1 || !Number.isInteger(rounds) || rounds < 1 || !(seconds > 1)) {
  console.error('usage: seq-bundles.js [rounds] [seconds] NAME=<bundle dir> [NAME=<bundle dir> …]');
  process.exit(2);
}

const upstream = await startUpstream(root);
/** @type {Array<{ name: string, server: import('../lib/processes.js').Server, workerd: number[], target: import('../lib/load.js').Target, runs: Array<Record<'rps' | 'p50' | 'p99' | 'cpuMs' | 'idle' | 'disk', number>> }>} */
const bundles = [];
try {
  for (const [name = '', dir = ''] of specs) {
    bundles.push({ name, ...(await startBundle(root, dir, String(upstream.info.url))), runs: [] });
  }
  for (const b of bundles) await startWrk(b.target, { connections: 16, durationS: 2 }); // warm-up
  for (let round = 0; round < rounds; round++) {
    for (const b of round % 2 === 0 ? bundles : [...bundles].reverse()) {
      const before = cpuSecondsOf(b.workerd);
      const sampling = sampleThreadStates(Number(b.workerd[0]), seconds - 0.5);
      const run = await startWrk(b.target, { connections: 16, durationS: seconds });
      const states = threadShares([await sampling]);
      const cpuMs = ((cpuSecondsOf(b.workerd) - before) * 1000) / run.requests;
      const x = {
        rps: run.requests / run.durationS,
        p50: run.latencyMs.p50,
        p99: run.latencyMs.p99,
        cpuMs,
        idle: states?.idle ?? Number.NaN,
        disk: states?.disk ?? Number.NaN,
      };
      b.runs.push(x);
      console.log(
        `round ${round + 1} ${b.name}: ${x.rps.toFixed(0)}/s, p50 ${x.p50} ms, p99 ${x.p99} ms, CPU ${cpuMs.toFixed(3)} ms/req, main thread ${x.idle}% idle, ${x.disk}% disk wait${run.non2xx + run.errors ? ` (${run.non2xx + run.errors} failed)` : ''}`,
      );
    }
  }
  for (const b of bundles) {
    const mean = (/** @type {keyof (typeof b.runs)[number]} */ k) =>
      b.runs.reduce((s, r) => s + r[k], 0) / b.runs.length;
    console.log(
      `${b.name}: mean ${mean('rps').toFixed(0)} req/s, p99 ${mean('p99').toFixed(1)} ms, CPU ${mean('cpuMs').toFixed(3)} ms/req, main thread ${mean('idle').toFixed(1)}% idle`,
    );
  }
} finally {
  for (const b of bundles) await b.server.stop();
  await upstream.stop();
}
