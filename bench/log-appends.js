#!/usr/bin/env node
// Log appends per second in local workerd (target: at least 5,000/s), with the real ReceiptLog Durable
// Object (SQLite nodes, one signed checkpoint per batch). `clients` concurrent HTTP requests each put
// `perRequest` appends in flight at once, for `rounds` rounds; a sequential run (one append at a time,
// so one batch and one signature per append) is the baseline. Run by the bench harness
// (bench/lib/micro.js) or alone: `node bench/log-appends.js [--quick]`. The last stdout line is JSON.
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unstable_startWorker } from 'wrangler';

const quick = process.argv.includes('--quick');
const root = join(import.meta.dirname, '..');

function pkcs8Ed25519() {
  const { privateKey } = generateKeyPairSync('ed25519');
  return privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64');
}

/**
 * @param {{ clients?: number, perRequest?: number, rounds?: number, sequential?: number }} [options]
 */
export async function measureLogAppends(options = {}) {
  const { clients = 16, perRequest = 100, rounds = quick ? 3 : 10, sequential = quick ? 100 : 300 } = options;
  const persist = mkdtempSync(join(tmpdir(), 'valve-log-bench-'));
  const worker = await unstable_startWorker({
    config: join(root, 'bench/log-bench/wrangler.toml'),
    dev: { server: { hostname: '127.0.0.1', port: 0 }, inspector: false, persist, logLevel: 'error' },
    bindings: { LOG_SIGNING_KEY: { type: 'plain_text', value: pkcs8Ed25519() } },
  });
  try {
    const url = String(await worker.url).replace(/\/$/, '');
    /** @param {string} shard @param {number} n */
    const append = async (shard, n) => {
      const res = await fetch(`${url}/append?n=${n}&shard=${shard}`, { method: 'POST' });
      if (!res.ok) throw new Error(`append: ${res.status} ${await res.text()}`);
      return /** @type {{ appended: number, sizes: number[], last: number }} */ (await res.json());
    };
    await append('batched', 200); // warm-up: the isolate, the object, the signer
    const batches = new Set();
    const began = performance.now();
    for (let r = 0; r < rounds; r++) {
      const answers = await Promise.all(Array.from({ length: clients }, () => append('batched', perRequest)));
      for (const answer of answers) for (const size of answer.sizes) batches.add(size);
    }
    const batchedSeconds = (performance.now() - began) / 1000;
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
          target: 5000,
        },
        {
          name: 'log appends/s, one at a time (one checkpoint each)',
          value: Math.round(sequential / seqSeconds),
          unit: 'appends/s',
        },
      ],
    };
  } finally {
    await worker.dispose();
    rmSync(persist, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await measureLogAppends();
  console.log(JSON.stringify(result));
}
