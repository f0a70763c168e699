#!/usr/bin/env node
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Miniflare } from 'miniflare';
import { bundle, pkcs8Ed25519 } from './lib/log-bench.js';
import { cpuSeconds, descendantsNamed } from './lib/processes.js';

const quick = process.argv.includes('--quick');
const _root = join(import.meta.dirname, '..');

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
