#!/usr/bin/env node
// The cost of a witness round (issue 30): one shard (a ReceiptLog Durable Object in local workerd)
// pushes its latest signed checkpoint to 1 and then 2 valve-witness processes (c2sp.org/tlog-witness),
// as its alarm does LOG_WITNESS_DELAY_MS after a batch. Each round follows 100 fresh appends, so every
// witness checks a consistency proof from the size it cosigned last, cosigns, and the shard verifies
// and records the cosignature. The bench calls the round itself (POST /witness, which runs
// ReceiptLog.witnessRound) with LOG_WITNESS_DELAY_MS set to a day, so no alarm runs one meanwhile. It
// reports the round's wall time (as the bench sees it, and as the object timed it), the CPU of the
// workerd process across the call and the CPU of the witness processes per round (/proc). Then appends
// per second on one shard without witnesses and with two at the default LOG_WITNESS_DELAY_MS (1000 ms,
// so alarm rounds run during the appends): what having witnesses costs the appends. Every round must
// be cosigned by every witness; one that is not fails the run. Run by the bench harness
// (bench/lib/micro.js) or alone: `node bench/witness-round.js [--quick]`; the last stdout line is JSON.
import { createHash, createPrivateKey, createPublicKey } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { bundle, pkcs8Ed25519, serve } from './lib/log-bench.js';
import { describeMachine, loadNow } from './lib/machine.js';
import { cpuSecondsOf, descendantsNamed, startServer } from './lib/processes.js';
import { percentile } from './lib/stats.js';
import { append, drive } from './log-shards.js';

const quick = process.argv.includes('--quick');
const root = join(import.meta.dirname, '..');
const A_DAY_MS = '86400000';

/**
 * @typedef {import('./lib/processes.js').Server} Process
 * @typedef {{ mf: import('miniflare').Miniflare, url: string, pids: number[] }} Worker
 * @typedef {{ name: string, ok: boolean, detail: string }} Outcome
 * @typedef {{ size: number, outcomes: Outcome[], milliseconds: number }} Round
 * @typedef {{
 *   witnesses: number, shard: string, rounds: number, appendsPerRound: number, finalSize: number,
 *   wallMs: { median: number, p90: number }, objectMs: { median: number, p90: number },
 *   workerdCpuMsPerRound: number | null, witnessCpuMsPerRound: number | null,
 * }} RoundsRun
 * @typedef {{
 *   witnesses: number, delayMs: number | null, appends: number, seconds: number, perSecond: number,
 *   workerdCpuUsPerAppend: number | null, witnessCpuMs: number | null,
 * }} AppendsRun
 * @typedef {{
 *   name: 'witness-round', cores: number, loadAverage: { before: number[], after: number[] },
 *   seconds: number, runs: RoundsRun[],
 *   appends: { clients: number, perRequest: number, passes: number, runs: AppendsRun[], ratio: number },
 *   metrics: { name: string, value: number, unit: string }[],
 * }} WitnessRoundResult
 */

/** @param {number} x @param {number} digits */
const round = (x, digits) => Math.round(x * 10 ** digits) / 10 ** digits;
/** @param {number} x */
const finite = (x) => (Number.isFinite(x) ? x : null);

/**
 * The C2SP verifier key of the log key `pkcs8` under key name `origin` (src/log/signed-note.ts):
 * `<origin>+<hex of SHA-256(origin || "\n" || 0x01 || public key)[:4]>+<base64(0x01 || public key)>`.
 * @param {string} origin
 * @param {string} pkcs8 base64 PKCS#8 Ed25519 private key
 */
export function logVerifierKey(origin, pkcs8) {
  const privateKey = createPrivateKey({ key: Buffer.from(pkcs8, 'base64'), format: 'der', type: 'pkcs8' });
  // An Ed25519 SPKI is a 12-byte header, then the 32-byte public key.
  const publicKey = createPublicKey(privateKey).export({ type: 'spki', format: 'der' }).subarray(-32);
  const typed = Buffer.concat([Buffer.from([0x01]), publicKey]);
  const id = createHash('sha256')
    .update(Buffer.concat([Buffer.from(`${origin}\n`), typed]))
    .digest()
    .subarray(0, 4);
  return `${origin}+${id.toString('hex')}+${typed.toString('base64')}`;
}

/** Bundles bin/valve-witness.ts as `npm run build:cli` does, so the bench runs the witness of this tree. */
async function bundleWitness(/** @type {string} */ dir) {
  const outfile = join(dir, 'valve-witness.js');
  await build({
    entryPoints: [join(root, 'bin/valve-witness.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    logLevel: 'error',
  });
  return outfile;
}

/**
 * Starts a valve-witness with a fresh key and state that witnesses the logs `logs` (verifier keys).
 * @param {{ work: string, witnessScript: string, logs: string[] }} context
 * @param {string} name
 * @returns {Promise<Process>}
 */
function startWitness(context, name) {
  const file = (/** @type {string} */ suffix) => join(context.work, `${name}.${suffix}`);
  const args = [context.witnessScript, '--name', `bench.valve.local/${name}`, '--key', file('key')];
  args.push('--state', file('state.json'), '--port', '0', ...context.logs.flatMap((log) => ['--log', log]));
  return startServer(process.execPath, args, { timeoutMs: 15_000 });
}

/** Sends SIGTERM to `pid`, which may have exited meanwhile. */
function killQuietly(/** @type {number} */ pid) {
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    // gone already
  }
}

/** `LOG_WITNESSES` naming the witnesses: "<verifier key> <URL>" a line. */
const witnessList = (/** @type {Process[]} */ witnesses) =>
  witnesses.map((w) => `${w.info.verifierKey} ${w.info.url}`).join('\n');

/**
 * One witnessing round of `shard` now; throws unless every one of `expected` witnesses cosigned it.
 * With `mayBeDone`, a round that pushes to none is accepted too: an alarm round had every witness
 * cosign the latest checkpoint already (a round skips the witnesses that did).
 * @param {Worker} worker
 * @param {string} shard
 * @param {number} expected
 * @param {{ mayBeDone?: boolean }} [options]
 * @returns {Promise<Round>}
 */
async function witnessRound(worker, shard, expected, options = {}) {
  const res = await fetch(`${worker.url}/witness?shard=${encodeURIComponent(shard)}`, { method: 'POST' });
  if (!res.ok) throw new Error(`witness round: ${res.status} ${await res.text()}`);
  const answer = /** @type {Round | null} */ (await res.json());
  if (answer === null)
    throw new Error(`witness round of ${shard}: no witnesses configured, or nothing logged`);
  const failed = answer.outcomes.filter((o) => !o.ok);
  const done = options.mayBeDone === true && answer.outcomes.length === 0;
  if ((answer.outcomes.length !== expected && !done) || failed.length > 0) {
    throw new Error(
      `witness round of ${shard} at size ${answer.size}: ${answer.outcomes.length} of ${expected} witnesses answered; failed: ${failed.map((o) => `${o.name}: ${o.detail}`).join('; ') || 'none'}`,
    );
  }
  return answer;
}

/** @param {number[]} values */
const medianAndP90 = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: round(percentile(sorted, 50), 2), p90: round(percentile(sorted, 90), 2) };
};

/**
 * `rounds` times: 100 appends to `shard`, then a witness round, timed; the workerd CPU is read across
 * each round only (the appends between are not its cost), the witness processes' across the whole loop
 * (they do nothing but the rounds).
 * @param {Worker} worker
 * @param {Process[]} witnesses
 * @param {{ shard: string, rounds: number, perRound: number }} plan
 * @returns {Promise<RoundsRun>}
 */
async function measureRounds(worker, witnesses, plan) {
  const target = { url: worker.url, shard: plan.shard };
  // Warm-up: the object, its signer, registration with the deployment's log, each witness's first cosignature.
  for (let i = 0; i < 2; i++) {
    await append(target, plan.perRound);
    await witnessRound(worker, plan.shard, witnesses.length);
  }
  const witnessPids = witnesses.map((w) => /** @type {number} */ (w.child.pid));
  const witnessBefore = cpuSecondsOf(witnessPids);
  /** @type {number[]} */
  const wall = [];
  /** @type {number[]} */
  const object = [];
  let workerdCpuS = 0;
  let size = 0;
  for (let i = 0; i < plan.rounds; i++) {
    await append(target, plan.perRound);
    const cpuBefore = cpuSecondsOf(worker.pids);
    const began = performance.now();
    const answer = await witnessRound(worker, plan.shard, witnesses.length);
    wall.push(performance.now() - began);
    workerdCpuS += cpuSecondsOf(worker.pids) - cpuBefore;
    object.push(answer.milliseconds);
    size = answer.size;
  }
  const witnessCpuS = cpuSecondsOf(witnessPids) - witnessBefore;
  const perRound = (/** @type {number} */ seconds) =>
    worker.pids.length === 0 ? null : finite(round((seconds / plan.rounds) * 1000, 2));
  return {
    witnesses: witnesses.length,
    shard: plan.shard,
    rounds: plan.rounds,
    appendsPerRound: plan.perRound,
    finalSize: size,
    wallMs: medianAndP90(wall),
    objectMs: medianAndP90(object),
    workerdCpuMsPerRound: perRound(workerdCpuS),
    witnessCpuMsPerRound: finite(round((witnessCpuS / plan.rounds) * 1000, 2)),
  };
}

/**
 * Appends per second on one shard of each of `workers`, in `passes` passes alternating the order
 * (A B, B A, …) so that a machine whose speed drifts weighs on both alike.
 * @param {{ worker: Worker, shard: string, witnesses: number, delayMs: number | null }[]} setups
 * @param {Process[]} witnesses their CPU is read around the witnessed runs
 * @param {{ clients: number, rounds: number, perRequest: number, passes: number }} load
 * @returns {Promise<AppendsRun[]>}
 */
async function measureAppends(setups, witnesses, load) {
  const witnessPids = witnesses.map((w) => /** @type {number} */ (w.child.pid));
  for (const s of setups) await append({ url: s.worker.url, shard: s.shard }, 200); // warm-up
  const totals = setups.map(() => ({ seconds: 0, workerdCpuS: 0, witnessCpuS: 0 }));
  for (let pass = 0; pass < load.passes; pass++) {
    const order = pass % 2 === 0 ? [...setups.keys()] : [...setups.keys()].reverse();
    for (const k of order) {
      const s = /** @type {(typeof setups)[number]} */ (setups[k]);
      const total = /** @type {(typeof totals)[number]} */ (totals[k]);
      const witnessBefore = cpuSecondsOf(witnessPids);
      const run = await drive([{ url: s.worker.url, shard: s.shard }], s.worker.pids, load);
      total.seconds += run.seconds;
      total.workerdCpuS += run.workerdCpuS;
      total.witnessCpuS += cpuSecondsOf(witnessPids) - witnessBefore;
    }
  }
  const appends = load.clients * load.rounds * load.perRequest * load.passes;
  return setups.map((s, k) => {
    const total = /** @type {(typeof totals)[number]} */ (totals[k]);
    const cpu = finite(total.workerdCpuS);
    return {
      witnesses: s.witnesses,
      delayMs: s.delayMs,
      appends,
      seconds: round(total.seconds, 3),
      perSecond: Math.round(appends / total.seconds),
      workerdCpuUsPerAppend: cpu === null ? null : round((cpu / appends) * 1e6, 1),
      witnessCpuMs: s.witnesses === 0 ? null : finite(round(total.witnessCpuS * 1000, 0)),
    };
  });
}

/**
 * @param {{ rounds?: number, perRound?: number, appendRounds?: number, passes?: number }} [options]
 *   `rounds`: measured witness rounds per witness count; `appendRounds`: requests per client in each
 *   of the `passes` passes of the appends comparison
 * @returns {Promise<WitnessRoundResult>}
 */
export async function measureWitnessRounds(options = {}) {
  const {
    rounds = quick ? 10 : 40,
    perRound = 100,
    appendRounds = quick ? 3 : 6,
    passes = quick ? 2 : 4,
  } = options;
  const began = performance.now();
  const { cpus: cores } = describeMachine();
  const loadBefore = loadNow();
  const work = mkdtempSync(join(tmpdir(), 'valve-witness-round-'));
  const signingKey = pkcs8Ed25519();
  const shards = { one: 'w1', two: 'w2', none: 'a0', witnessed: 'a2' };
  const origin = (/** @type {string} */ shard) => `bench.valve.local/log/${shard}`;
  const context = {
    work,
    scriptPath: await bundle(join(work, 'bundle')),
    witnessScript: await bundleWitness(join(work, 'cli')),
    signingKey,
    logs: Object.values(shards).map((s) => logVerifierKey(origin(s), signingKey)),
    known: new Set(descendantsNamed(process.pid, 'workerd')),
  };
  /** @type {Process[]} */
  const witnesses = [];
  /** @type {Worker[]} */
  const workers = [];
  const start = async (/** @type {string} */ name, /** @type {Record<string, string>} */ bindings) => {
    const worker = await serve(context, name, bindings);
    workers.push(worker);
    return worker;
  };
  const stopAll = async () => {
    await Promise.allSettled(workers.map((w) => w.mf.dispose()));
    await Promise.allSettled(witnesses.map((w) => w.stop()));
    rmSync(work, { recursive: true, force: true });
  };
  // Stopped from outside (the harness's timeout sends SIGTERM), the run still stops what it started.
  // Miniflare's own exit hook ends the process on SIGINT/SIGTERM (process.exit, stopping its workerd)
  // before anything asynchronous could run, so the witnesses and the temp files go on 'exit', at once.
  // A witness still starting is not in `witnesses` yet: the Node processes under this one are the witnesses.
  const stopNow = () => {
    for (const w of witnesses) w.child.kill('SIGTERM');
    for (const pid of descendantsNamed(process.pid, 'node')) killQuietly(pid);
    rmSync(work, { recursive: true, force: true });
  };
  const onSignal = (/** @type {NodeJS.Signals} */ signal) => process.exit(signal === 'SIGINT' ? 130 : 143);
  process.on('exit', stopNow);
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  try {
    /** @type {RoundsRun[]} */
    const runs = [];
    for (const [count, shard] of /** @type {const} */ ([
      [1, shards.one],
      [2, shards.two],
    ])) {
      while (witnesses.length < count)
        witnesses.push(await startWitness(context, `witness-${witnesses.length + 1}`));
      const worker = await start(`valve-witness-round-${count}`, {
        LOG_WITNESSES: witnessList(witnesses),
        LOG_WITNESS_DELAY_MS: A_DAY_MS,
      });
      runs.push(await measureRounds(worker, witnesses, { shard: origin(shard), rounds, perRound }));
    }
    const load = { clients: 16, rounds: appendRounds, perRequest: 100, passes };
    const appendRuns = await measureAppends(
      [
        {
          worker: await start('valve-witness-none', {}),
          shard: origin(shards.none),
          witnesses: 0,
          delayMs: null,
        },
        {
          // LOG_WITNESS_DELAY_MS unset: the default 1000 ms, so alarm rounds run among the appends.
          worker: await start('valve-witness-alarms', { LOG_WITNESSES: witnessList(witnesses) }),
          shard: origin(shards.witnessed),
          witnesses: witnesses.length,
          delayMs: 1000,
        },
      ],
      witnesses,
      load,
    );
    // The alarm rounds must have been cosigned too: one more round now finds every witness willing
    // to cosign the latest checkpoint, or finds that each already has.
    const alarmed = /** @type {Worker} */ (workers[workers.length - 1]);
    await witnessRound(alarmed, origin(shards.witnessed), witnesses.length, { mayBeDone: true });
    const [none, witnessed] = /** @type {[AppendsRun, AppendsRun]} */ (appendRuns);
    return {
      name: 'witness-round',
      cores,
      loadAverage: { before: loadBefore, after: loadNow() },
      seconds: round((performance.now() - began) / 1000, 1),
      runs,
      appends: {
        clients: load.clients,
        perRequest: load.perRequest,
        passes: load.passes,
        runs: appendRuns,
        ratio: round(witnessed.perSecond / none.perSecond, 3),
      },
      metrics: [
        ...runs.flatMap((r) => {
          const label = `${r.witnesses} witness${r.witnesses === 1 ? '' : 'es'} (local workerd, valve-witness)`;
          return [
            { name: `witness round wall time p50, ${label}`, value: r.wallMs.median, unit: 'ms' },
            ...(r.workerdCpuMsPerRound === null
              ? []
              : [{ name: `witness round workerd CPU, ${label}`, value: r.workerdCpuMsPerRound, unit: 'ms' }]),
          ];
        }),
        {
          name: `log appends/s with ${witnessed.witnesses} witnesses vs none, one shard (local workerd)`,
          value: round(witnessed.perSecond / none.perSecond, 3),
          unit: '×',
        },
      ],
    };
  } finally {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
    await stopAll();
    process.off('exit', stopNow);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await measureWitnessRounds()));
}
