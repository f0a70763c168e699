#!/usr/bin/env node
// Log appends per second by shard count (1, 2, 4, 8), each shard its own ReceiptLog Durable Object
// named by its origin (`bench.valve.local/log/o<count>-s<k>`, `p…` for a process each), so each
// registers with the deployment's own log as a sharded deployment's do. The same 16 concurrent
// clients, each keeping one request of 100 appends in flight, spread round-robin over the shards;
// every run does the same number of appends. Two layouts: every shard in one workerd process (one JS
// thread, as `wrangler dev` runs them), and each shard in a workerd process of its own (as production
// runs each object on its own thread). Each run in two passes, the shard counts ascending and then
// descending, both layouts at each count, so that a machine whose speed drifts weighs on every count
// alike. Besides wall-clock appends/s it reads, from /proc, the CPU time of the workerd processes
// serving the shards (CPU per append, appends per CPU-second: in one process, flat across shard counts
// when the shards are independent), of this Node process (the load generator) and of the whole
// machine (what else ran). On N cores the second layout can grow only up to about N× one shard, less
// what the load generator and other work take. Run by the bench harness (bench/lib/micro.js) or
// alone: `node bench/log-shards.js [--quick]`; the last stdout line is JSON.
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { describeMachine, loadNow, machineBusySeconds } from './lib/machine.js';
import { cpuSecondsOf, descendantsNamed } from './lib/processes.js';

const quick = process.argv.includes('--quick');
const root = join(import.meta.dirname, '..');

/**
 * @typedef {'one process' | 'a process each'} Layout
 * @typedef {{ mf: Miniflare, url: string, pids: number[] }} Server
 * @typedef {{ url: string, shard: string }} Target
 * @typedef {{ seconds: number, workerdCpuS: number, loadGeneratorCpuS: number, machineBusyS: number, batches: number }} Pass
 * @typedef {{
 *   layout: Layout, shards: number, processes: number, appends: number, seconds: number,
 *   perSecond: number, speedup: number | null, bound: number,
 *   workerdCpuUsPerAppend: number | null, appendsPerCpuSecond: number | null, meanBatch: number,
 *   coresBusy: { workerd: number | null, loadGenerator: number, other: number | null },
 * }} ShardRun
 * @typedef {{
 *   name: 'log-shards', cores: number, loadAverage: { before: number[], after: number[] },
 *   clients: number, perRequest: number, passes: number, appendsPerRun: number, runs: ShardRun[],
 *   metrics: { name: string, value: number, unit: string }[],
 * }} ShardsResult
 */

/** @type {Layout[]} */
const layouts = ['one process', 'a process each'];

export function pkcs8Ed25519() {
  const { privateKey } = generateKeyPairSync('ed25519');
  return privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64');
}

/** Bundles bench/log-bench/worker.js (which imports the ReceiptLog from src/) into `dir`; bench/witness-round.js too. */
export async function bundle(/** @type {string} */ dir) {
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

/** @param {number} x @param {number} digits */
const round = (x, digits) => Math.round(x * 10 ** digits) / 10 ** digits;
/** @param {number} x */
const finite = (x) => (Number.isFinite(x) ? x : null);

/**
 * Serves the log-bench bundle in a workerd process of its own, started by Miniflare, with `bindings`
 * beside the log's origin and key, and finds that process: the workerd under this one that was not
 * there before (`known`, which it joins).
 * @param {{ work: string, scriptPath: string, signingKey: string, known: Set<number> }} context
 * @param {string} name
 * @param {Record<string, string>} [bindings]
 * @returns {Promise<Server>}
 */
export async function serve(context, name, bindings = {}) {
  const mf = new Miniflare({
    name,
    modules: true,
    scriptPath: context.scriptPath,
    modulesRoot: join(context.work, 'bundle'),
    compatibilityDate: '2026-04-01',
    compatibilityFlags: ['nodejs_compat'],
    host: '127.0.0.1',
    port: 0,
    durableObjects: { RECEIPT_LOG: { className: 'ReceiptLog', useSQLite: true } },
    durableObjectsPersist: join(context.work, 'do', name),
    bindings: { LOG_ORIGIN: 'bench.valve.local/log/0', LOG_SIGNING_KEY: context.signingKey, ...bindings },
  });
  let url;
  try {
    url = String(await mf.ready).replace(/\/$/, '');
  } catch (error) {
    await mf.dispose();
    throw error;
  }
  const pids = descendantsNamed(process.pid, 'workerd').filter((pid) => !context.known.has(pid));
  for (const pid of pids) context.known.add(pid);
  return { mf, url, pids };
}

/**
 * `n` appends to `target`'s shard in one request; the sizes of the checkpoints (batches) they landed in.
 * @param {Target} target
 * @param {number} n
 */
export async function append(target, n) {
  const res = await fetch(`${target.url}/append?n=${n}&shard=${encodeURIComponent(target.shard)}`, {
    method: 'POST',
  });
  if (!res.ok) throw new Error(`append: ${res.status} ${await res.text()}`);
  return /** @type {{ sizes: number[] }} */ (await res.json()).sizes;
}

/**
 * `clients` clients each keep one request of `perRequest` appends in flight, round-robin over the
 * targets, until `clients × rounds` requests are done; the CPU of the workerd processes `pids`, of this
 * process (the load generator) and of the machine is read around the run.
 * @param {Target[]} targets
 * @param {number[]} pids
 * @param {{ clients: number, rounds: number, perRequest: number }} load
 * @returns {Promise<Pass>}
 */
export async function drive(targets, pids, load) {
  const batches = new Set();
  const workerdBefore = cpuSecondsOf(pids);
  const machineBefore = machineBusySeconds();
  const nodeBefore = process.cpuUsage();
  const began = performance.now();
  let started = 0;
  const client = async () => {
    while (started < load.clients * load.rounds) {
      const target = /** @type {Target} */ (targets[started % targets.length]);
      started++;
      for (const size of await append(target, load.perRequest)) batches.add(`${target.shard} ${size}`);
    }
  };
  await Promise.all(Array.from({ length: load.clients }, client));
  const seconds = (performance.now() - began) / 1000;
  const node = process.cpuUsage(nodeBefore);
  return {
    seconds,
    workerdCpuS: pids.length === 0 ? Number.NaN : cpuSecondsOf(pids) - workerdBefore,
    loadGeneratorCpuS: (node.user + node.system) / 1e6,
    machineBusyS: machineBusySeconds() - machineBefore,
    batches: batches.size,
  };
}

/**
 * One layout at one shard count, its passes summed.
 * @param {Layout} layout
 * @param {number} shards
 * @param {Pass[]} passes
 * @param {{ appends: number, cores: number }} context
 * @returns {ShardRun}
 */
function summarize(layout, shards, passes, context) {
  /** @param {(p: Pass) => number} f */
  const sum = (f) => passes.reduce((total, p) => total + f(p), 0);
  const seconds = sum((p) => p.seconds);
  const cpu = finite(sum((p) => p.workerdCpuS));
  const node = sum((p) => p.loadGeneratorCpuS);
  const machine = finite(sum((p) => p.machineBusyS));
  return {
    layout,
    shards,
    processes: layout === 'one process' ? 1 : shards,
    appends: context.appends,
    seconds: round(seconds, 3),
    perSecond: Math.round(context.appends / seconds),
    speedup: null,
    bound: layout === 'one process' ? 1 : Math.min(shards, context.cores),
    workerdCpuUsPerAppend: cpu && cpu > 0 ? round((cpu / context.appends) * 1e6, 1) : null,
    appendsPerCpuSecond: cpu && cpu > 0 ? Math.round(context.appends / cpu) : null,
    meanBatch: Math.round(
      context.appends /
        Math.max(
          1,
          sum((p) => p.batches),
        ),
    ),
    coresBusy: {
      workerd: cpu === null ? null : round(cpu / seconds, 2),
      loadGenerator: round(node / seconds, 2),
      other: cpu === null || machine === null ? null : round(Math.max(0, machine - cpu - node) / seconds, 2),
    },
  };
}

/**
 * @param {{ shardCounts?: number[], clients?: number, perRequest?: number, rounds?: number }} [options]
 *   `rounds`: requests per client in each of the two passes
 * @returns {Promise<ShardsResult>}
 */
export async function measureLogShards(options = {}) {
  const { shardCounts = [1, 2, 4, 8], clients = 16, perRequest = 100, rounds = quick ? 4 : 12 } = options;
  const passes = 2;
  const { cpus: cores } = describeMachine();
  const loadBefore = loadNow();
  const work = mkdtempSync(join(tmpdir(), 'valve-log-shards-'));
  const context = {
    work,
    scriptPath: await bundle(join(work, 'bundle')),
    signingKey: pkcs8Ed25519(),
    known: new Set(descendantsNamed(process.pid, 'workerd')),
  };
  /** @type {Server[]} */
  const servers = [];
  try {
    servers.push(await serve(context, 'valve-log-shards'));
    const most = Math.max(...shardCounts);
    for (let k = 0; k < most; k++) servers.push(await serve(context, `valve-log-shard-${k}`));
    const shared = /** @type {Server} */ (servers[0]);
    const own = servers.slice(1);
    /** @param {Layout} layout @param {number} count */
    const setup = (layout, count) => {
      const serving = layout === 'one process' ? [shared] : own.slice(0, count);
      const targets = Array.from({ length: count }, (_, k) => ({
        url: (serving[k % serving.length] ?? shared).url,
        shard: `bench.valve.local/log/${layout === 'one process' ? 'o' : 'p'}${count}-s${k}`,
      }));
      return { targets, pids: serving.flatMap((s) => s.pids) };
    };
    // Warm-up: each object, its signer and its registration with the deployment's own log.
    for (const count of shardCounts)
      for (const layout of layouts)
        for (const target of setup(layout, count).targets) await append(target, 200);

    /** @type {Map<string, Pass[]>} */
    const passesOf = new Map();
    for (let pass = 0; pass < passes; pass++) {
      const order = pass % 2 === 0 ? shardCounts : [...shardCounts].reverse();
      for (const count of order)
        for (const layout of pass % 2 === 0 ? layouts : [...layouts].reverse()) {
          const { targets, pids } = setup(layout, count);
          const key = `${layout} ${count}`;
          passesOf.set(key, [
            ...(passesOf.get(key) ?? []),
            await drive(targets, pids, { clients, rounds, perRequest }),
          ]);
        }
    }
    const appends = clients * rounds * perRequest * passes;
    const runs = layouts.flatMap((layout) =>
      shardCounts.map((count) =>
        summarize(layout, count, passesOf.get(`${layout} ${count}`) ?? [], { appends, cores }),
      ),
    );
    for (const run of runs) {
      const one = runs.find((r) => r.layout === run.layout && r.shards === 1);
      run.speedup = one ? round(run.perSecond / one.perSecond, 2) : null;
    }
    return {
      name: 'log-shards',
      cores,
      loadAverage: { before: loadBefore, after: loadNow() },
      clients,
      perRequest,
      passes,
      appendsPerRun: appends,
      runs,
      metrics: runs.flatMap((r) => {
        const label = `${r.shards} shard${r.shards === 1 ? '' : 's'}, ${r.layout} (local workerd)`;
        return [
          { name: `log appends/s, ${label}`, value: r.perSecond, unit: 'appends/s' },
          ...(r.appendsPerCpuSecond === null
            ? []
            : [
                {
                  name: `log appends per workerd CPU-second, ${label}`,
                  value: r.appendsPerCpuSecond,
                  unit: 'appends/CPU-s',
                },
              ]),
        ];
      }),
    };
  } finally {
    await Promise.all(servers.map((s) => s.mf.dispose()));
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await measureLogShards()));
}
