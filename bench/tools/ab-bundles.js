#!/usr/bin/env node
// Two deploy bundles of Valve compared under load at the same time, so that the host's drift (a
// shared VM's speed here moves by up to 2× within minutes) weighs on both alike: each is served by
// its own workerd (bench/servers/valve.js) on the same fake upstream, one wrk at 16 connections
// each, started together; per round, each one's workerd CPU per request (from /proc) and the ratio
// B/A. Run A/A once first (the same bundle twice) to see the noise and any bias of position, and run
// A/B both ways round. Build a bundle with `npx wrangler deploy --dry-run --outdir DIR`.
// Usage: node bench/tools/ab-bundles.js [rounds, default 6] [seconds, default 5] A=DIR B=DIR [--capped]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuSeconds, descendantsNamed, startServer } from '../lib/processes.js';

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

const scripts = mkdtempSync(join(tmpdir(), 'valve-ab-'));
const body = JSON.stringify({
  task: 'summarize',
  instructions: 'Summarize the ticket in one sentence.',
  context: [{ label: 'ticket', trust: 'untrusted', privacy: 'internal', content: 'The printer is on fire.' }],
  modelPolicy: { maxLatencyMs: 10_000 },
});
const upstream = await startServer(process.execPath, [join(root, 'bench/servers/upstream.js')], {
  timeoutMs: 10_000,
});
/** @type {Array<{ name: string, server: import('../lib/processes.js').Server, workerd: number[], script: string, url: string, cpu: number[], rps: number[] }>} */
const targets = [];
for (const spec of specs) {
  const [name = '', dir = ''] = spec.split('=');
  const server = await startServer(
    process.execPath,
    [join(root, 'bench/servers/valve.js'), `--bundle=${dir}`, `--upstream=${String(upstream.info.url)}`],
    { cwd: root, timeoutMs: 90_000 },
  );
  const key = String(capped ? server.info.cappedKey : server.info.key);
  const script = join(scripts, `${targets.length}.lua`);
  writeFileSync(
    script,
    `wrk.method = "POST"
wrk.body = ${JSON.stringify(body)}
wrk.headers["authorization"] = "Bearer ${key}"
wrk.headers["content-type"] = "application/json"
done = function(s) io.write(string.format("{\\"requests\\":%d,\\"status\\":%d}\\n", s.requests, s.errors.status)) end
`,
  );
  const workerd = descendantsNamed(Number(server.child.pid), 'workerd');
  targets.push({
    name,
    server,
    workerd,
    script,
    url: `${String(server.info.url)}/v1/reason`,
    cpu: [],
    rps: [],
  });
}

/** @param {typeof targets[number]} target @param {number} durationS */
function load(target, durationS) {
  return new Promise((resolve, reject) => {
    const wrk = spawn('wrk', ['-t1', '-c16', `-d${durationS}s`, '-s', target.script, target.url]);
    let out = '';
    wrk.stdout.on('data', (chunk) => {
      out += chunk;
    });
    wrk.on('error', reject);
    wrk.on('exit', () => {
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (!line) return reject(new Error(`wrk printed no summary: ${out.slice(-300)}`));
      resolve(/** @type {{ requests: number, status: number }} */ (JSON.parse(line)));
    });
  });
}

const cpuOf = (/** @type {number[]} */ pids) =>
  pids.reduce((sum, pid) => sum + (cpuSeconds(pid) ?? Number.NaN), 0);

/** @param {number} durationS */
async function round(durationS) {
  const before = targets.map((t) => cpuOf(t.workerd));
  const runs = /** @type {Array<{ requests: number, status: number }>} */ (
    await Promise.all(targets.map((t) => load(t, durationS)))
  );
  return targets.map((t, i) => {
    const run = /** @type {{ requests: number, status: number }} */ (runs[i]);
    return {
      rps: run.requests / durationS,
      failed: run.status,
      cpuMs: ((cpuOf(t.workerd) - /** @type {number} */ (before[i])) * 1000) / run.requests,
    };
  });
}

const median = (/** @type {number[]} */ values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return /** @type {number} */ (sorted[Math.floor(sorted.length / 2)]);
};

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
  rmSync(scripts, { recursive: true, force: true });
}
