#!/usr/bin/env node
// `npm run bench [-- --quick]`: what Valve costs a caller, measured in one run beside calling the upstream
// directly, beside two peer gateways and beside the runtime's floor on the same upstream, and every
// fast-path goal in one table.
//
//   1. a fake OpenAI-compatible upstream (bench/servers/upstream.js, its own process, fixed answers);
//   2. Valve's production bundle in workerd (bench/servers/valve.js: Miniflare, no dev proxy) with
//      receipts, the log, the rate limiter and usage on, for an uncapped and a capped tenant; its
//      streaming first byte; the same ask through its three entrances (/v1/reason, the OpenAI door
//      /openai/v1/chat/completions and the Anthropic door /anthropic/v1/messages, bench/lib/doors.js),
//      each a door's cost over /v1/reason; `npm start`'s own server;
//   3. the peers on the same upstream: Portkey's open-source gateway (@portkey-ai/gateway), installed
//      into a temp folder on demand, and LiteLLM's proxy (litellm[proxy] from PyPI), installed into a
//      Python virtual environment under .cache/bench/ on demand, with its stores, logs and telemetry off;
//   4. the runtime's floor: a Worker that only forwards to the upstream (bench/servers/floor-worker.js),
//      served as the deploy bundle is.
// Throughput: `wrk -t1 -c16` when wrk is there (installed with apt-get when root), else autocannon, in
// rounds that alternate the targets (three in a full run, two in a quick one), summed per target.
// Latency: a paced open-loop run at a fixed offered rate (200/s, bench/lib/paced.js). Server CPU per request: the server's
// CPU time (/proc/<pid>/stat, every process of LiteLLM's tree) over the throughput run, divided by its requests. Round trips: the
// Worker's Server-Timing `storage` entries (bench/lib/round-trips.js), for /v1/reason and each door. Then the micro-benchmarks,
// bench/log-appends.js, bench/log-shards.js (log appends by shard count) and bench/witness-round.js
// (the cost of a witness round). Writes bench/results/<date>.json (+ .md) and latency.svg; prints markdown.
//
// Options: --quick (about three minutes), --rate=N, --latency-ms=N, --connections=N, --no-peer (no Portkey),
// --no-litellm, --no-floor, --no-micro, --no-npm-start, --autocannon (no wrk), --peer-version=V,
// --litellm-version=V, --litellm-workers=N, --state=disk|shm, --inspector-port=N, --out=DIR.
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { buildBundle, reasonBody, startTargets } from './lib/bench-servers.js';
import { latencyChart } from './lib/chart.js';
import {
  anthropicDoorBody,
  doorAbsent,
  doorAnswerProblem,
  doorRows,
  doorTargets,
  openaiDoorBody,
} from './lib/doors.js';
import { goalRows } from './lib/goals.js';
import { litellmVersion, litellmWorkers } from './lib/litellm.js';
import { measureTtfb, runLoad, sumRounds } from './lib/load.js';
import { describeMachine, loadNow } from './lib/machine.js';
import { runExtras, runMicro } from './lib/micro.js';
import { runPaced } from './lib/paced.js';
import { peerPackage } from './lib/peer.js';
import { cpuSecondsOf, descendantsNamed, peakMemory, writeBytesOf } from './lib/processes.js';
import { labels, toMarkdown } from './lib/report.js';
import { countRoundTrips } from './lib/round-trips.js';
import { sampleThreadStates, threadShares } from './lib/thread-states.js';
import { ensureWrk, runWrk } from './lib/wrk.js';

const root = join(import.meta.dirname, '..');
const argv = process.argv.slice(2);
/** @param {string} name */
const flag = (name) => argv.includes(`--${name}`);
/** @param {string} name @param {string} fallback */
const option = (name, fallback) =>
  argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;

const quick = flag('quick');
const rate = Number(option('rate', '200'));
const upstreamLatencyMs = Number(option('latency-ms', '0'));
const connections = Number(option('connections', '16'));
// Relative to the project; an absolute path is taken as it is.
const outDir = resolve(root, option('out', 'bench/results'));
const plan = quick
  ? {
      warmupS: 1,
      rateS: 4,
      maxS: 4,
      maxRounds: 2,
      tailS: 4,
      ttfbRequests: 60,
      ttfbS: 3,
      trips: 10,
      microTimeoutS: 40,
    }
  : {
      warmupS: 3,
      rateS: 20,
      maxS: 15,
      maxRounds: 3,
      tailS: 8,
      ttfbRequests: 400,
      ttfbS: 15,
      trips: 50,
      microTimeoutS: 300,
    };
const began = performance.now();
/** @param {string} message */
const say = (message) =>
  console.error(`[bench ${((performance.now() - began) / 1000).toFixed(1)}s] ${message}`);

/** @type {Array<() => Promise<void>>} */
const cleanups = [];
async function cleanup() {
  for (const stop of cleanups.splice(0).reverse()) await stop().catch(() => {});
}
process.on('SIGINT', () => cleanup().then(() => process.exit(130)));

const chatBody = (/** @type {boolean} */ stream) =>
  JSON.stringify({
    model: 'gpt-bench',
    messages: [
      { role: 'system', content: 'Summarize the ticket in one sentence.' },
      { role: 'user', content: 'The printer is on fire.' },
    ],
    max_tokens: 4096,
    ...(stream && { stream: true, stream_options: { include_usage: true } }),
  });
const json = { 'content-type': 'application/json' };

async function main() {
  const machine = describeMachine();
  const loadBefore = loadNow();
  say(
    `${quick ? 'quick' : 'full'} run on ${machine.cpus}× ${machine.cpuModel}, load ${loadBefore.join(' ')}`,
  );
  const wrk = flag('autocannon') ? null : ensureWrk(say);
  const loadGenerator = wrk
    ? `${wrk} -t1 -c${connections}`
    : `autocannon -c${connections} (wrk not available)`;

  const bundle = mkdtempSync(join(tmpdir(), 'valve-bench-bundle-'));
  cleanups.push(async () => rmSync(bundle, { recursive: true, force: true }));
  buildBundle(root, bundle);
  say('built the Worker bundle');
  const servers = await startTargets({
    root,
    bundle,
    upstreamLatencyMs,
    peer: !flag('no-peer'),
    peerVersion: option('peer-version', '1.15.2'),
    litellm: !flag('no-litellm'),
    litellmVersion: option('litellm-version', litellmVersion),
    litellmWorkers: Number(option('litellm-workers', String(litellmWorkers))),
    floor: !flag('no-floor'),
    npmStart: !flag('no-npm-start'),
    inspectorPort: option('inspector-port', ''),
    state: option('state', 'disk'),
    cleanups,
    say,
  });
  const { upstreamUrl, valve, peer, litellm, floor, npmStart, peerInfo, litellmInfo } = servers;
  const valveUrl = String(valve.info.url);
  const bearer = (/** @type {unknown} */ key) => ({ ...json, authorization: `Bearer ${String(key)}` });
  const peerHeaders = {
    ...json,
    authorization: 'Bearer bench-key',
    'x-portkey-provider': 'openai',
    'x-portkey-custom-host': `${upstreamUrl}/v1`,
  };
  /** @type {Record<string, import('./lib/load.js').Target>} */
  const targets = {
    direct: {
      url: `${upstreamUrl}/v1/chat/completions`,
      headers: bearer('bench-key'),
      body: chatBody(false),
    },
    valve: { url: `${valveUrl}/v1/reason`, headers: bearer(valve.info.key), body: reasonBody() },
    capped: { url: `${valveUrl}/v1/reason`, headers: bearer(valve.info.cappedKey), body: reasonBody() },
    ...(peer && {
      peer: { url: `${peer.url}/v1/chat/completions`, headers: peerHeaders, body: chatBody(false) },
    }),
    ...(litellm && {
      litellm: {
        url: `${litellm.url}/v1/chat/completions`,
        headers: bearer(litellm.key),
        body: chatBody(false),
      },
    }),
    ...(floor && { floor: { url: String(floor.info.url), headers: json, body: chatBody(false) } }),
    ...(npmStart && {
      npmStart: { url: `${npmStart.url}/v1/reason`, headers: bearer(npmStart.key), body: reasonBody() },
    }),
  };
  for (const [name, target] of Object.entries(targets)) {
    const res = await fetch(target.url, { method: 'POST', headers: target.headers, body: target.body });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${name} answered ${res.status}: ${text.slice(0, 500)}`);
    if (name === 'valve' && !JSON.parse(text).receipt) throw new Error('Valve answered without a receipt');
  }
  // The doors, each sent the same ask as /v1/reason; a door this build lacks (404) is reported absent.
  const doors = doorTargets(valveUrl, String(valve.info.key));
  /** @type {Record<string, import('./lib/doors.js').DoorStatus>} */
  const doorStatus = {};
  for (const [name, target] of /** @type {const} */ ([
    ['door', doors.door],
    ['anthropic', doors.anthropic],
  ])) {
    const res = await fetch(target.url, { method: 'POST', headers: target.headers, body: target.body });
    const text = await res.text();
    if (doorAbsent(res.status, text)) {
      doorStatus[name] = 'absent';
      continue;
    }
    const problem = doorAnswerProblem(name, res.status, res.headers, text);
    if (problem) throw new Error(`${name} ${problem}`);
    doorStatus[name] = 'measured';
  }
  const facade = doorStatus.door ?? 'not run';
  // The entrances next to each other, so that their paced runs follow one another in time.
  const measuredDoors = Object.fromEntries(
    Object.entries(doors).filter(([name]) => doorStatus[name] === 'measured'),
  );
  const ordered = Object.entries(targets).flatMap((entry) =>
    entry[0] === 'valve' ? [entry, ...Object.entries(measuredDoors)] : [entry],
  );
  for (const name of Object.keys(targets)) delete targets[name];
  Object.assign(targets, Object.fromEntries(ordered));
  say(
    `targets: ${Object.keys(targets).join(', ')}; OpenAI door ${doorStatus.door}, Anthropic door ${doorStatus.anthropic}`,
  );

  // The processes whose CPU is the server's: workerd under each Valve (and floor) supervisor, Portkey's
  // Node, LiteLLM's whole tree (its uvicorn supervisor and every worker).
  /** @type {Record<string, number[]>} */
  const serverPids = {
    direct: [Number(servers.upstream.child.pid)],
    valve: descendantsNamed(Number(valve.child.pid), 'workerd'),
    ...(peer && { peer: [Number(peer.child.pid)] }),
    ...(litellm && { litellm: litellm.pids() }),
    ...(floor && { floor: descendantsNamed(Number(floor.child.pid), 'workerd') }),
    ...(npmStart && { npmStart: descendantsNamed(npmStart.pid, 'workerd') }),
  };
  serverPids.capped = serverPids.valve ?? [];
  serverPids.door = serverPids.valve ?? [];
  serverPids.anthropic = serverPids.valve ?? [];
  // LiteLLM's CPU is read from its tree's root each time, so that a worker replaced midway still counts.
  /** @param {string} name */
  const cpuNow = (name) =>
    name === 'litellm' && litellm ? litellm.cpuSeconds() : cpuSecondsOf(serverPids[name] ?? []);

  /** @type {Record<string, import('./lib/load.js').LoadResult>} */
  const fixed = {};
  const fixedRateOf = new Set(['direct', 'floor', 'valve', 'door', 'anthropic', 'peer', 'litellm']);
  for (const [name, target] of Object.entries(targets)) {
    await runLoad(target, { connections: 8, durationS: plan.warmupS });
    if (fixedRateOf.has(name)) {
      fixed[name] = await runPaced(target, { connections, durationS: plan.rateS, rate });
      const f = fixed[name];
      say(`${name}: @${rate}/s p50 ${f.latencyMs.p50} p99 ${f.latencyMs.p99} ms`);
    }
  }

  // Throughput in rounds, every target once a round and the order reversed each round, so that a
  // host whose speed drifts within minutes (a shared VM's does, by up to 2× here) weighs on every
  // target alike instead of on whichever ran in its slow minutes; each figure sums its rounds.
  // The main thread of each single-process server is sampled meanwhile (running, disk wait, idle).
  /** @type {Record<string, Array<{ result: import('./lib/load.js').LoadResult, cpuS: number, written: number, states: import('./lib/thread-states.js').ThreadStates | null }>>} */
  const rounds = Object.fromEntries(Object.keys(targets).map((name) => [name, []]));
  const names = Object.keys(targets);
  for (let round = 0; round < plan.maxRounds; round++) {
    for (const name of round % 2 === 0 ? names : [...names].reverse()) {
      const target = /** @type {import('./lib/load.js').Target} */ (targets[name]);
      const pids = serverPids[name] ?? [];
      const cpuBefore = cpuNow(name);
      const writtenBefore = writeBytesOf(pids);
      const durationS = plan.maxS / plan.maxRounds;
      // The sampler's Node starts in about 0.1 s; it stops before the load does, so no idle tail counts.
      const sampling =
        pids.length === 1 ? sampleThreadStates(Number(pids[0]), Math.max(0.5, durationS - 0.3)) : null;
      const result = wrk
        ? runWrk(target, { connections, durationS })
        : await runLoad(target, { connections, durationS, maxRequests: 500_000 });
      const cpuS = pids.length > 0 ? cpuNow(name) - cpuBefore : Number.NaN;
      const written = pids.length > 0 ? writeBytesOf(pids) - writtenBefore : Number.NaN;
      rounds[name]?.push({ result, cpuS, written, states: sampling ? await sampling : null });
    }
  }
  /** @type {Record<string, import('./lib/load.js').LoadResult>} */
  const max = {};
  /** @type {Record<string, number | null>} */
  const cpuMsPerRequest = {};
  /** @type {Record<string, ReturnType<typeof threadShares>>} */
  const mainThread = {};
  /** @type {Record<string, number | null>} */
  const writtenKiBPerRequest = {};
  for (const [name, runs] of Object.entries(rounds)) {
    const result = sumRounds(runs.map((r) => r.result));
    const cpu = runs.reduce((sum, r) => sum + r.cpuS, 0);
    max[name] = result;
    cpuMsPerRequest[name] =
      Number.isFinite(cpu) && result.requests > 0 ? Math.round((cpu / result.requests) * 1e5) / 100 : null;
    mainThread[name] = threadShares(runs.flatMap((r) => (r.states ? [r.states] : [])));
    // Bytes sent to storage per request, counted as the pages are dirtied (WAL, checkpoints, rows).
    const written = runs.reduce((sum, r) => sum + r.written, 0);
    writtenKiBPerRequest[name] =
      Number.isFinite(written) && result.requests > 0
        ? Math.round((written / 1024 / result.requests) * 100) / 100
        : null;
    const thread = mainThread[name];
    say(
      `${name}: max ${result.rps}/s (rounds ${runs.map((r) => r.result.rps).join(', ')}) p99 ${result.latencyMs.p99} ms, CPU ${cpuMsPerRequest[name]} ms/req, ${writtenKiBPerRequest[name]} KiB written/req${thread ? `, main thread ${thread.running}% running, ${thread.disk}% disk wait, ${thread.idle}% idle` : ''} (${result.non2xx} non-2xx, ${result.errors} errors)`,
    );
  }

  // The tail at 16 connections once more, from a Node client (autocannon, each latency taken from its
  // response) instead of wrk: under wrk, workerd's p99 reads several times what a Node client reads at
  // the same rate, even for a Worker that only answers "ok", while Portkey's reads the same under both
  // (README, "The tail at 16 connections"). Both clients' figures are reported.
  /** @type {Record<string, import('./lib/load.js').LoadResult>} */
  const tail = {};
  if (wrk) {
    for (const name of ['valve', 'peer', 'litellm']) {
      const target = targets[name];
      if (target) tail[name] = await runLoad(target, { connections, durationS: plan.tailS });
    }
    say(
      `p99 at ${connections} connections, autocannon: ${Object.entries(tail)
        .map(([name, t]) => `${name} ${t.latencyMs.p99} ms (${t.rps}/s)`)
        .join(', ')}`,
    );
  }

  /** @type {Record<string, Awaited<ReturnType<typeof measureTtfb>>>} */
  const ttfb = {};
  const streamTargets = {
    direct: { ...targets.direct, body: chatBody(true) },
    valve: { ...targets.valve, headers: { ...targets.valve.headers, accept: 'text/event-stream' } },
    ...(targets.door && { door: { ...targets.door, body: openaiDoorBody(true) } }),
    ...(targets.anthropic && { anthropic: { ...targets.anthropic, body: anthropicDoorBody(true) } }),
    ...(targets.peer && { peer: { ...targets.peer, body: chatBody(true) } }),
    ...(targets.litellm && { litellm: { ...targets.litellm, body: chatBody(true) } }),
    ...(targets.floor && { floor: { ...targets.floor, body: chatBody(true) } }),
  };
  for (const [name, target] of Object.entries(streamTargets)) {
    ttfb[name] = await measureTtfb(target, { requests: plan.ttfbRequests, maxS: plan.ttfbS });
    const t = ttfb[name];
    say(
      `${name} stream: first byte p50 ${t.firstByteMs.p50} ms p99 ${t.firstByteMs.p99} ms (${t.contentType})`,
    );
  }

  const trips = {
    plain: await countRoundTrips(() => targets.valve, plan.trips),
    receiptId: await countRoundTrips(
      () => ({ ...targets.valve, body: reasonBody({ receiptId: randomUUID() }) }),
      plan.trips,
    ),
    capped: await countRoundTrips(() => targets.capped, plan.trips),
    ...(targets.door && { door: await countRoundTrips(() => doors.door, plan.trips) }),
    ...(targets.anthropic && {
      anthropic: await countRoundTrips(() => doors.anthropic, plan.trips),
    }),
  };
  say(`round trips: ${JSON.stringify(trips)}`);

  const extras = runExtras(root, { quick, upstream: upstreamUrl, timeoutS: quick ? 60 : 180 });
  // A server of several processes (LiteLLM's workers) holds the sum of their peaks at most.
  const memory = Object.fromEntries(
    Object.entries(serverPids).map(([name, pids]) => [
      name,
      [...new Map(pids.flatMap((pid) => peakMemory(pid)).map((p) => [p.pid, p.peakKiB])).values()].reduce(
        (sum, kib) => sum + kib,
        0,
      ),
    ]),
  );
  const loadAfter = loadNow();
  await cleanup();
  say('servers stopped');

  const micro = flag('no-micro')
    ? { ok: false, results: [], seconds: 0, error: '--no-micro' }
    : runMicro(root, plan.microTimeoutS);
  say(
    `micro-benchmarks: ${micro.results.length} results in ${micro.seconds}s${micro.error ? ` (${micro.error})` : ''}`,
  );

  const logShards = extras.find((e) => e.file.endsWith('log-shards.js')) ?? null;
  const witnessRounds = extras.find((e) => e.file.endsWith('witness-round.js')) ?? null;
  const logExtra = extras.find((e) => e.file.endsWith('log-appends.js'))?.result;
  /** @param {RegExp} unit */
  const logMetric = (unit) =>
    logExtra?.metrics?.find(
      (/** @type {{ name: string, unit: string }} */ x) => /batched/.test(x.name) && unit.test(x.unit),
    )?.value ?? null;
  const ttfbP50 = Object.fromEntries(Object.entries(ttfb).map(([name, t]) => [name, t.firstByteMs.p50]));
  const goals = goalRows({
    rate,
    max,
    fixed,
    tail,
    cpuMsPerRequest,
    ttfbP50,
    trips,
    logAppends: { perSecond: logMetric(/^appends\/s$/), perCpuSecond: logMetric(/CPU-s/) },
    logShards: logShards?.result ?? null,
    facade,
    anthropicDoor: doorStatus.anthropic ?? 'not run',
  });
  const entrances = doorRows({
    max,
    fixed,
    cpuMsPerRequest,
    trips: { valve: trips.plain, door: trips.door, anthropic: trips.anthropic },
    ttfbP50,
    status: doorStatus,
  });
  const results = {
    date: new Date().toISOString(),
    mode: quick ? 'quick' : 'full',
    command: `npm run bench${argv.length > 0 ? ` -- ${argv.join(' ')}` : ''}`,
    machine: { ...machine, loadAverageBefore: loadBefore, loadAverageAfter: loadAfter },
    conditions: {
      offeredRate: rate,
      connections,
      fixedRateSeconds: plan.rateS,
      maxSeconds: plan.maxS,
      maxRounds: plan.maxRounds,
      upstreamLatencyMs,
      loadGenerator,
      valveRuntime:
        'workerd via Miniflare, production bundle (wrangler deploy --dry-run), local D1 and SQLite Durable Objects',
      valveState: option('state', 'disk') === 'shm' ? 'tmpfs (/dev/shm)' : 'disk (OS temp dir)',
    },
    peer: { package: peerPackage, ...peerInfo },
    litellm: litellmInfo,
    floor: {
      status: floor ? 'ran' : 'skipped',
      worker: 'bench/servers/floor-worker.js',
      ...(!floor && { reason: '--no-floor' }),
    },
    goals,
    doors: entrances,
    servers: Object.fromEntries(
      Object.keys(targets).map((name) => [
        name,
        {
          label: labels[name] ?? name,
          fixedRate: fixed[name],
          max: max[name],
          cpuMsPerRequest: cpuMsPerRequest[name] ?? null,
          mainThread: mainThread[name] ?? null,
          writtenKiBPerRequest: writtenKiBPerRequest[name] ?? null,
          peakRssMiB: memory[name] ? Math.round((memory[name] / 1024) * 10) / 10 : null,
          ttfb: ttfb[name] ?? null,
          tailAutocannon: tail[name] ?? null,
        },
      ]),
    ),
    roundTrips: trips,
    micro,
    logShards,
    witnessRounds,
    extras: extras.filter((e) => e !== logShards && e !== witnessRounds),
  };
  mkdirSync(outDir, { recursive: true });
  const date = results.date.slice(0, 10);
  const stem = quick ? `${date}-quick` : date;
  const markdown = toMarkdown(results);
  writeFileSync(join(outDir, `${stem}.json`), `${JSON.stringify({ ...results, markdown }, null, 2)}\n`);
  writeFileSync(join(outDir, `${stem}.md`), markdown);
  const chartName = quick ? 'latency-quick.svg' : 'latency.svg';
  writeFileSync(
    join(outDir, chartName),
    latencyChart({
      title: `Latency at ${rate} requests/s offered (${quick ? 'quick run' : 'full run'}, ${date})`,
      subtitle: `${machine.cpus}× ${machine.cpuModel}, Node ${machine.node}; fake upstream ${upstreamLatencyMs} ms; load avg ${loadBefore[0]}`,
      series: Object.entries(fixed).map(([name, l]) => ({
        name: labels[name] ?? name,
        percentiles: l.latencyMs.percentiles,
      })),
    }),
  );
  console.log(markdown);
  say(`wrote ${relative(root, join(outDir, `${stem}.json`))}, ${stem}.md and ${chartName}`);
}

try {
  await main();
} catch (error) {
  console.error(`bench failed: ${error instanceof Error ? error.stack : String(error)}`);
  await cleanup();
  process.exit(1);
}
