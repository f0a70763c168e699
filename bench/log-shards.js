#!/usr/bin/env node
// Log appends per second by shard count (1, 2, 4, 8), each shard its own ReceiptLog Durable Object
// named by its origin (`bench.valve.local/log/n<count>-s<k>`, so each registers with the deployment's
// own log as a sharded deployment's do). The same 16 concurrent clients, each keeping one request of
// 100 appends in flight, spread round-robin over the shards; every run does the same number of appends.
// Two layouts: every shard in one workerd process (one JS thread, as `wrangler dev` runs them), and
// each shard in a workerd process of its own (as production runs each object on its own thread). The
// second grows with shards only up to the cores the machine has. `node bench/log-shards.js [--quick]`;
// the last stdout line is JSON.
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';

const quick = process.argv.includes('--quick');
const root = join(import.meta.dirname, '..');

function pkcs8Ed25519() {
  const { privateKey } = generateKeyPairSync('ed25519');
  return privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64');
}

/** @param {{ shardCounts?: number[], clients?: number, perRequest?: number, rounds?: number }} [options] */
export async function measureLogShards(options = {}) {
  const { shardCounts = [1, 2, 4, 8], clients = 16, perRequest = 100, rounds = quick ? 4 : 16 } = options;
  const work = mkdtempSync(join(tmpdir(), 'valve-log-shards-'));
  await build({
    entryPoints: [join(root, 'bench/log-bench/worker.js')],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    external: ['cloudflare:*', 'node:*'],
    outfile: join(work, 'bundle', 'worker.js'),
    logLevel: 'error',
  });
  const signingKey = pkcs8Ed25519();
  /** @param {string} name */
  const start = (name) =>
    new Miniflare({
      name,
      modules: true,
      scriptPath: join(work, 'bundle', 'worker.js'),
      modulesRoot: join(work, 'bundle'),
      compatibilityDate: '2026-04-01',
      compatibilityFlags: ['nodejs_compat'],
      host: '127.0.0.1',
      port: 0,
      durableObjects: { RECEIPT_LOG: { className: 'ReceiptLog', useSQLite: true } },
      durableObjectsPersist: join(work, 'do', name),
      bindings: { LOG_ORIGIN: 'bench.valve.local/log/0', LOG_SIGNING_KEY: signingKey },
    });
  const shared = start('valve-log-shards');
  /** @type {Miniflare[]} */
  const own = [];
  try {
    const sharedUrl = String(await shared.ready).replace(/\/$/, '');
    /** @type {Map<string, string>} */
    const urlOf = new Map();
    /** @param {string} shard @param {number} n */
    const append = async (shard, n) => {
      const url = urlOf.get(shard) ?? sharedUrl;
      const res = await fetch(`${url}/append?n=${n}&shard=${encodeURIComponent(shard)}`, { method: 'POST' });
      if (!res.ok) throw new Error(`append: ${res.status} ${await res.text()}`);
      await res.json();
    };
    const metrics = [];
    for (const [layout, perProcess] of /** @type {const} */ ([
      ['one process', false],
      ['a process each', true],
    ]))
      for (const count of shardCounts) {
        const shards = Array.from(
          { length: count },
          (_, k) => `bench.valve.local/log/${perProcess ? 'p' : 'o'}${count}-s${k}`,
        );
        if (perProcess) {
          for (const shard of shards) {
            const mf = start(`valve-log-shard-${own.length}`);
            own.push(mf);
            urlOf.set(shard, String(await mf.ready).replace(/\/$/, ''));
          }
        }
        for (const shard of shards) await append(shard, 200); // warm-up: the object, its signer, its registration
        let started = 0;
        const client = async () => {
          while (started < clients * rounds) {
            const shard = shards[started % count];
            started++;
            await append(/** @type {string} */ (shard), perRequest);
          }
        };
        const began = performance.now();
        await Promise.all(Array.from({ length: clients }, client));
        const seconds = (performance.now() - began) / 1000;
        metrics.push({
          name: `log appends/s, ${count} shard${count === 1 ? '' : 's'}, ${layout} (local workerd)`,
          value: Math.round((clients * rounds * perRequest) / seconds),
          unit: 'appends/s',
        });
        if (perProcess) await Promise.all(own.splice(0).map((mf) => mf.dispose()));
      }
    return { name: 'log-shards', appendsPerRun: clients * rounds * perRequest, metrics };
  } finally {
    await Promise.all([shared, ...own].map((mf) => mf.dispose()));
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await measureLogShards()));
}
