#!/usr/bin/env node
// How many uvicorn workers give LiteLLM's proxy its best throughput on this machine: one proxy per
// worker count, all on the same fake upstream and all started before any is loaded; every round loads
// each one alone with wrk at 16 connections, the order reversed each round, and reads the CPU of its
// whole process tree (supervisor and workers) from /proc. The idle proxies' CPU meanwhile is read too,
// so that a proxy busy in the background is seen. The bench's setting is `litellmWorkers` in
// bench/lib/litellm.js; the last experiment is in bench/results/2026-12-04-litellm-workers.md.
// Usage: node bench/tools/litellm-workers.js [--workers=1,2,4] [--rounds=3] [--seconds=8] [--out=FILE.md]
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startUpstream } from '../lib/bench-servers.js';
import { installLitellm, litellmFeaturesOff, litellmVersion, startLitellm } from '../lib/litellm.js';
import { sumRounds } from '../lib/load.js';
import { describeMachine, loadNow } from '../lib/machine.js';
import { ensureWrk, runWrk } from '../lib/wrk.js';

const root = join(import.meta.dirname, '../..');
/** @param {string} name @param {string} fallback */
const option = (name, fallback) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const counts = option('workers', '1,2,4').split(',').map(Number);
const rounds = Number(option('rounds', '3'));
const seconds = Number(option('seconds', '8'));
const out = option('out', '');
const say = (/** @type {string} */ message) => console.error(`[litellm-workers] ${message}`);

const wrk = ensureWrk(say);
if (!wrk) throw new Error('wrk is needed (apt-get install wrk)');
const machine = describeMachine();
const loadBefore = loadNow();
const install = installLitellm(root, litellmVersion);
say(`LiteLLM ${litellmVersion} ${install.installed ? `installed in ${install.installMs} ms` : 'found'}`);
const upstream = await startUpstream(root);
const upstreamUrl = String(upstream.info.url);
/** @type {Array<{ workers: number, proxy: Awaited<ReturnType<typeof startLitellm>>, pids: number[], runs: Array<{ result: import('../lib/load.js').LoadResult, cpuS: number }>, idleCpuS: number, idleS: number }>} */
const proxies = [];
try {
  for (const workers of counts) {
    const proxy = await startLitellm(install, { upstreamUrl, workers });
    proxies.push({ workers, proxy, pids: proxy.pids(), runs: [], idleCpuS: 0, idleS: 0 });
    say(`${workers} worker(s): ${proxy.url}, ${proxy.pids().length} processes`);
  }
  /** @param {{ key: string, url: string }} proxy @returns {import('../lib/load.js').Target} */
  const target = (proxy) => ({
    url: `${proxy.url}/v1/chat/completions`,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${proxy.key}` },
    body: JSON.stringify({
      model: 'gpt-bench',
      messages: [
        { role: 'system', content: 'Summarize the ticket in one sentence.' },
        { role: 'user', content: 'The printer is on fire.' },
      ],
      max_tokens: 4096,
    }),
  });
  for (const p of proxies) runWrk(target(p.proxy), { connections: 16, durationS: 2 }); // warm-up
  for (let round = 0; round < rounds; round++) {
    for (const p of round % 2 === 0 ? proxies : [...proxies].reverse()) {
      const before = proxies.map((q) => q.proxy.cpuSeconds());
      const result = runWrk(target(p.proxy), { connections: 16, durationS: seconds });
      proxies.forEach((q, i) => {
        const cpuS = q.proxy.cpuSeconds() - Number(before[i]);
        if (q === p) q.runs.push({ result, cpuS });
        else {
          q.idleCpuS += cpuS;
          q.idleS += result.durationS;
        }
      });
      say(
        `round ${round + 1}, ${p.workers} worker(s): ${result.rps}/s, p50 ${result.latencyMs.p50} ms, p99 ${result.latencyMs.p99} ms${result.non2xx + result.errors > 0 ? ` (${result.non2xx + result.errors} failed)` : ''}`,
      );
    }
  }
} finally {
  for (const p of proxies) await p.proxy.stop();
  await upstream.stop();
}

const rows = proxies.map((p) => {
  const sum = sumRounds(p.runs.map((r) => r.result));
  const cpuS = p.runs.reduce((s, r) => s + r.cpuS, 0);
  return {
    workers: p.workers,
    processes: p.pids.length,
    rps: sum.rps,
    rounds: sum.rounds,
    p50: sum.latencyMs.p50,
    p99: sum.latencyMs.p99,
    cpuMs: Math.round((cpuS / sum.ok) * 1e5) / 100,
    cores: Math.round((cpuS / sum.durationS) * 100) / 100,
    idleCores: p.idleS > 0 ? Math.round((p.idleCpuS / p.idleS) * 1000) / 1000 : 0,
    failed: sum.non2xx + sum.errors,
  };
});
const best = rows.reduce((a, b) => (b.rps > a.rps ? b : a));
const markdown = `${[
  `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC with \`node bench/tools/litellm-workers.js --workers=${counts.join(',')} --rounds=${rounds} --seconds=${seconds}\` on ${machine.cpus}× ${machine.cpuModel}, ${machine.memoryGiB} GiB, Node ${machine.node}, Python ${install.python}; load average ${loadBefore.join(' / ')} before, ${loadNow().join(' / ')} after. \`${'litellm[proxy]'}==${litellmVersion}\`, uvicorn with uvloop, on the bench's fake upstream (0 ms); ${wrk} -t1 -c16, ${rounds} rounds of ${seconds} s per worker count, the order reversed each round. Off: ${litellmFeaturesOff.join('; ')}.`,
  '',
  '| workers | processes | req/s (each round) | p50 / p99 | CPU per request (whole tree) | cores busy under load | cores busy while idle | failed |',
  '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ...rows.map(
    (r) =>
      `| ${r.workers} | ${r.processes} | ${r.rps} (${r.rounds.join(', ')}) | ${r.p50} / ${r.p99} ms | ${r.cpuMs} ms | ${r.cores} | ${r.idleCores} | ${r.failed} |`,
  ),
  '',
  `Best throughput: ${best.workers} worker(s), ${best.rps} req/s.`,
].join('\n')}\n`;
console.log(markdown);
if (out) writeFileSync(resolve(root, out), markdown);
