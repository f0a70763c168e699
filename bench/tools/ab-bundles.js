#!/usr/bin/env node
// Two deploy bundles of Valve compared under load at the same time, so that the host's drift (a
// shared VM's speed here moves by up to 2× within minutes) weighs on both alike: each is served by
// its own workerd (bench/servers/valve.js) on the same fake upstream, one wrk at 16 connections
// each, started together; per round, each one's workerd CPU per request (from /proc) and the ratio
// B/A. Run A/A once first (the same bundle twice) to see the noise and any bias of position, and run
// A/B both ways round. Build a bundle with `npx wrangler deploy --dry-run --outdir DIR`.
// Usage: node bench/tools/ab-bundles.js [rounds, default 6] [seconds, default 5] A=DIR B=DIR [--capped]
import { join } from 'node:path';
import { startBundle, startUpstream } from '../lib/bench-servers.js';
import { cpuSecondsOf } from '../lib/processes.js';
import { percentile } from '../lib/stats.js';
import { startWrk } from '../lib/wrk.js';

const root = join(import.meta.dirname, '../..');
const positional = process.argv.slice(2).filter((a) => !a.startsWith('--') && !a.includes('='));
const specs = process.argv.slice(2).filter((a) => a.includes('='));
const rounds = Number(positional[0] ?? 6);
const seconds = Number(positional[1] ?? 5);
const capped = process.argv.includes('--capped');
if (specs.length !== 2 || !Number.isInteger(rounds) || rounds < 1 || !(seconds > 0)) {
  console.error('usage: ab-bundles.js [rounds] [seconds] A=<bundle dir> B=<bundle dir> [--capped]');
  process.exit(2);
}

const upstream = await startUpstream(root);
/** @type {Array<{ name: string, server: import('../lib/processes.js').Server, workerd: number[], target: import('../lib/load.js').Target, cpu: number[], rps: number[] }>} */
const targets = [];
for (const spec of specs) {
  const [name = '', dir = ''] = spec.split('=');
  const started = await startBundle(root, dir, String(upstream.info.url), { capped });
  targets.push({ name, ...started, cpu: [], rps: [] });
}

/** @param {number} durationS */
async function round(durationS) {
  const before = targets.map((t) => cpuSecondsOf(t.workerd));
  const runs = await Promise.all(targets.map((t) => startWrk(t.target, { connections: 16, durationS })));
  return targets.map((t, i) => {
    const run = /** @type {import('../lib/load.js').LoadResult} */ (runs[i]);
    return {
      rps: run.requests / run.durationS,
      failed: run.non2xx + run.errors,
      cpuMs: ((cpuSecondsOf(t.workerd) - /** @type {number} */ (before[i])) * 1000) / run.requests,
    };
  });
}

const median = (/** @type {number[]} */ values) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

try {
  await round(2); // warm-up
  /** @type {number[]} */
  const ratios = [];
  for (let r = 0; r < rounds; r++) {
    const results = await round(seconds);
    results.forEach((result, i) => {
      targets[i]?.cpu.push(result.cpuMs);
      targets[i]?.rps.push(result.rps);
    });
    const [a, b] = results;
    if (!a || !b) throw new Error('two targets expected');
    ratios.push(b.cpuMs / a.cpuMs);
    console.log(
      `round ${r + 1}: ${targets
        .map((t, i) => {
          const x = /** @type {(typeof results)[number]} */ (results[i]);
          return `${t.name} ${x.rps.toFixed(0)}/s ${x.cpuMs.toFixed(3)} ms${x.failed ? ` (${x.failed} failed)` : ''}`;
        })
        .join(', ')}; B/A ${(b.cpuMs / a.cpuMs).toFixed(3)}`,
    );
  }
  for (const t of targets) {
    console.log(
      `${t.name}: median ${median(t.rps).toFixed(0)} req/s, ${median(t.cpu).toFixed(3)} ms CPU per request`,
    );
  }
  console.log(`B/A CPU per request: median ${median(ratios).toFixed(3)} over ${rounds} rounds`);
} finally {
  for (const t of targets) await t.server.stop();
  await upstream.stop();
}
