#!/usr/bin/env node
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundle, pkcs8Ed25519, serve } from './lib/log-bench.js';
import { describeMachine, loadNow, machineBusySeconds } from './lib/machine.js';
import { cpuSecondsOf, descendantsNamed } from './lib/processes.js';

const quick = process.argv.includes('--quick');
const _root = join(import.meta.dirname, '..');

/**
 * @typedef {'one process' | 'a process each'} Layout
 * @typedef {import('./lib/log-bench.js').Server} Server
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

/** @param {number} x @param {number} digits */
const round = (x, digits) => Math.round(x * 10 ** digits) / 10 ** digits;
/** @param {number} x */
const finite = (x) => (Number.isFinite(x) ? x : null);

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
