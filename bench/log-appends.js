#!/usr/bin/env node
// Log appends per second in local workerd (target: at least 10,000/s), with the real ReceiptLog Durable
// Object (SQLite nodes, one signed checkpoint per batch). `clients` concurrent HTTP clients each keep
// one request of `perRequest` appends in flight (each append its own RPC to the object, as a Valve
// request makes one) until `rounds × clients` requests are done; a sequential run (one append at a
// time, so one batch and one signature per append) is the baseline. The bench Worker is bundled with
// esbuild and served by Miniflare directly, as bench/servers/valve.js serves Valve: `wrangler dev`'s
// proxy Worker, a second workerd process on the same cores, is no part of what the log costs.
// Besides wall-clock appends/s it reads workerd's own CPU time (/proc/<pid>/stat) for the run: CPU per
// append, and appends per CPU-second, which is the wall figure on an otherwise idle core and the one
// that stays put when other work shares the machine. Both include the bench Worker's RPC to the object.
// Run by the bench harness (bench/lib/micro.js) or alone: `node bench/log-appends.js [--quick]`.
// The last stdout line is JSON.
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { cpuSeconds, descendantsNamed } from './lib/processes.js';

const quick = process.argv.includes('--quick');
const root = join(import.meta.dirname, '..');

function pkcs8Ed25519() {
  const { privateKey } = generateKeyPairSync('ed25519');
  return privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64');
}

/** Bundles bench/log-bench/worker.js (which imports the ReceiptLog from src/) into `dir`. */
async function bundle(/** @type {string} */ dir) {
  await build({
    entryPoints: [join(root, 'bench/log-bench/worker.js')],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    external: ['cloudflare:*', 'node:*'],
    outfile: join(dir, 'worker.js'),
    logLevel: 'error',
  });
  return join(dir, 'worker.js');
}

/**
 * @param {{ clients?: number, perRequest?: number, rounds?: number, sequential?: number }} [options]
 */
export async function measureLogAppends(options = {}) {
  const { clients = 16, perRequest = 100, rounds = quick ? 4 : 20, sequential = quick ? 100 : 300 } = options;
  const work = mkdtempSync(join(tmpdir(), 'valve-log-bench-'));
  const scriptPath = await bundle(join(work, 'bundle'));
  const mf = new Miniflare({
    name: 'valve-log-bench',
    modules: true,
    scriptPath,
    modulesRoot: join(work, 'bundle'),
    compatibilityDate: '2026-04-01',
    compatibilityFlags: ['nodejs_compat'],
    host: '127.0.0.1',
    port: 0,
    durableObjects: { RECEIPT_LOG: { className: 'ReceiptLog', useSQLite: true } },
    durableObjectsPersist: join(work, 'do'),
    bindings: { LOG_ORIGIN: 'bench.valve.local/log/0', LOG_SIGNING_KEY: pkcs8Ed25519() },
  });
  try {
    const url = String(await mf.ready).replace(/\/$/, '');
    /** @param {string} shard @param {number} n */
    const append = async (shard, n) => {
      const res = await fetch(`${url}/append?n=${n}&shard=${shard}`, { method: 'POST' });
      if (!res.ok) throw new Error(`append: ${res.status} ${await res.text()}`);
      return /** @type {{ appended: number, sizes: number[], last: number }} */ (await res.json());
    };
    await append('batched', 200); // warm-up: the isolate, the object, the signer
    await append('batched', 1600);
    const workerd = descendantsNamed(process.pid, 'workerd')[0];
    const cpuBefore = workerd === undefined ? null : cpuSeconds(workerd);
    const batches = new Set();
    let started = 0;
    const client = async () => {
      while (started < clients * rounds) {
        started++;
        const answer = await append('batched', perRequest);
        for (const size of answer.sizes) batches.add(size);
      }
    };
    const began = performance.now();
    await Promise.all(Array.from({ length: clients }, client));
    const batchedSeconds = (performance.now() - began) / 1000;
    const cpuAfter = workerd === undefined ? null : cpuSeconds(workerd);
    const cpu = cpuBefore !== null && cpuAfter !== null ? cpuAfter - cpuBefore : null;
    const total = clients * perRequest * rounds;

    await append('sequential', 1);
    const seqBegan = performance.now();
    for (let i = 0; i < sequential; i++) await append('sequential', 1);
    const seqSeconds = (performance.now() - seqBegan) / 1000;

    const perSecond = Math.round(total / batchedSeconds);
    return {
      name: 'log-appends',
      appends: total,
      seconds: Number(batchedSeconds.toFixed(3)),
      inFlight: clients * perRequest,
      batches: batches.size,
      meanBatch: Math.round(total / Math.max(1, batches.size)),
      metrics: [
        {
          name: 'log appends/s, batched (in local workerd)',
          value: perSecond,
          unit: 'appends/s',
          target: 10_000,
        },
        ...(cpu !== null && cpu > 0
          ? [
              {
                name: 'log appends per workerd CPU-second, batched',
                value: Math.round(total / cpu),
                unit: 'appends/CPU-s',
              },
              { name: 'workerd CPU per append', value: Math.round((cpu / total) * 1e7) / 10, unit: 'µs' },
            ]
          : []),
        {
          name: 'log appends/s, one at a time (one checkpoint each)',
          value: Math.round(sequential / seqSeconds),
          unit: 'appends/s',
        },
      ],
    };
  } finally {
    await mf.dispose();
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await measureLogAppends();
  console.log(JSON.stringify(result));
}
