#!/usr/bin/env node
// `npm run bench [-- --quick]`: what Valve costs a caller in latency and throughput, measured in one run
// beside calling the upstream directly and beside a peer gateway on the same upstream.
//
//   1. a fake OpenAI-compatible upstream (bench/servers/upstream.js, its own process, fixed answers,
//      optional fixed latency with --latency-ms=N);
//   2. Valve's production bundle in workerd (bench/servers/valve.js: Miniflare, no dev proxy), JSON path
//      with prompt rendering, policy, the OpenAI adapter, rate limiting, budget, and receipts + log when
//      the pipeline issues them; and its streaming time to first byte;
//   3. Portkey's open-source gateway (@portkey-ai/gateway) installed into a temp folder on demand.
// Load comes from autocannon: one run at a fixed offered rate (500/s) for latency, one unthrottled
// run for throughput. Then the micro-benchmarks (vitest bench) and any extra measurement scripts.
// Writes bench/results/<date>.json (+ .md) and bench/results/latency.svg; prints a markdown table.
//
// Options: --quick (under a minute), --rate=N, --latency-ms=N, --connections=N, --no-peer, --no-micro,
// --peer-version=V, --state=disk|shm, --inspector-port=N (workerd's inspector, for a CPU profile of Valve), --out=DIR.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { latencyChart } from './lib/chart.js';
import { measureTtfb, runLoad } from './lib/load.js';
import { describeMachine, loadNow } from './lib/machine.js';
import { runExtras, runMicro } from './lib/micro.js';
import { installPeer, peerPackage, startPeer } from './lib/peer.js';
import { peakMemory, startServer } from './lib/processes.js';

const root = join(import.meta.dirname, '..');
const argv = process.argv.slice(2);
/** @param {string} name */
const flag = (name) => argv.includes(`--${name}`);
/** @param {string} name @param {string} fallback */
const option = (name, fallback) =>
  argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;

const quick = flag('quick');
const rate = Number(option('rate', '500'));
const upstreamLatencyMs = Number(option('latency-ms', '0'));
const connections = Number(option('connections', '32'));
const peerVersion = option('peer-version', '1.15.2');
const outDir = join(root, option('out', 'bench/results'));
const inspectorPort = option('inspector-port', '');
// Where workerd keeps local D1 and Durable Object state: `disk` (the OS temp dir, as `wrangler dev`
// does) or `shm` (/dev/shm, memory), which takes the local disk's fsync out of each storage write.
const state = option('state', 'disk');
const plan = quick
  ? { warmupS: 1, rateS: 4, maxS: 3, ttfbRequests: 60, ttfbS: 3, microTimeoutS: 40 }
  : { warmupS: 3, rateS: 20, maxS: 15, ttfbRequests: 400, ttfbS: 15, microTimeoutS: 300 };
const began = performance.now();
const elapsed = () => `${((performance.now() - began) / 1000).toFixed(1)}s`;
/** @param {string} message */
const say = (message) => console.error(`[bench ${elapsed()}] ${message}`);

/** @type {Array<() => Promise<void>>} */
const cleanups = [];
async function cleanup() {
  for (const stop of cleanups.splice(0).reverse()) await stop().catch(() => {});
}
process.on('SIGINT', () => cleanup().then(() => process.exit(130)));

const reasonBody = JSON.stringify({
  task: 'summarize',
  instructions: 'Summarize the ticket in one sentence.',
  context: [{ label: 'ticket', trust: 'untrusted', privacy: 'internal', content: 'The printer is on fire.' }],
  modelPolicy: { maxLatencyMs: 10_000 },
});
// The same ask through the OpenAI-compatible door: its added latency is the mapping and the encoders.
const doorBody = (/** @type {boolean} */ stream) =>
  JSON.stringify({
    model: 'auto',
    messages: [
      { role: 'system', content: 'Summarize the ticket in one sentence.' },
      { role: 'user', content: 'The printer is on fire.' },
    ],
    valve: { modelPolicy: { maxLatencyMs: 10_000 } },
    ...(stream && { stream: true, stream_options: { include_usage: true } }),
  });
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

async function main() {
  const machine = describeMachine();
  const loadBefore = loadNow();
  say(
    `${quick ? 'quick' : 'full'} run on ${machine.cpus}× ${machine.cpuModel}, load ${loadBefore.join(' ')}`,
  );

  // The peer installs and starts while the bundle builds: it needs nothing from the others.
  /** @type {{ status: string, version: string, installMs?: number, reason?: string, workaround?: string }} */
  const peerInfo = { status: 'skipped', version: peerVersion };
  const peerStart = (async () => {
    if (flag('no-peer')) {
      peerInfo.reason = '--no-peer';
      return undefined;
    }
    try {
      const install = installPeer(peerVersion);
      peerInfo.installMs = install.installMs;
      const peer = await startPeer(install, join(root, 'bench/servers/peer-preload.js'));
      peerInfo.status = 'ran';
      peerInfo.workaround =
        'fetch responses re-wrapped with mutable headers (Portkey-AI/gateway #1389, #1550), 127.0.0.1 only';
      return peer;
    } catch (error) {
      peerInfo.status = 'unavailable';
      peerInfo.reason = error instanceof Error ? error.message.slice(0, 2000) : String(error);
      return undefined;
    }
  })();
  // The production bundle, exactly what `wrangler deploy` uploads.
  const bundle = mkdtempSync(join(tmpdir(), 'valve-bench-bundle-'));
  cleanups.push(async () => rmSync(bundle, { recursive: true, force: true }));
  const build = spawnSync(
    join(root, 'node_modules', '.bin', 'wrangler'),
    ['deploy', '--dry-run', '--outdir', bundle],
    { cwd: root, encoding: 'utf8', env: { ...process.env, CI: '1' }, timeout: 120_000 },
  );
  if (build.status !== 0) throw new Error(`wrangler deploy --dry-run failed: ${build.stderr.slice(-2000)}`);
  say('built the Worker bundle');

  const upstream = await startServer(
    process.execPath,
    [join(root, 'bench/servers/upstream.js'), `--latency-ms=${upstreamLatencyMs}`],
    { timeoutMs: 10_000 },
  );
  cleanups.push(upstream.stop);
  const upstreamUrl = String(upstream.info.url);

  const valveStart = startServer(
    process.execPath,
    [
      join(root, 'bench/servers/valve.js'),
      `--bundle=${bundle}`,
      `--upstream=${upstreamUrl}`,
      ...(inspectorPort ? [`--inspector-port=${inspectorPort}`] : []),
    ],
    { cwd: root, timeoutMs: 90_000, env: { ...process.env, ...(state === 'shm' && { TMPDIR: '/dev/shm' }) } },
  );
  valveStart.catch(() => {}); // awaited below; this only keeps an early failure from going unhandled
  const peer = await peerStart;
  if (peer) cleanups.push(peer.stop);
  const valve = await valveStart;
  cleanups.push(valve.stop);
  if (!peer) say(`PEER NOT MEASURED: ${peerInfo.reason}`);
  say(`servers up: upstream ${upstreamUrl}, Valve ${valve.info.url}${peer ? `, peer ${peer.url}` : ''}`);

  const valveUrl = String(valve.info.url);
  const valveKey = String(valve.info.key);
  /** @type {Record<string, { url: string, headers: Record<string, string>, body: string }>} */
  const targets = {
    direct: {
      url: `${upstreamUrl}/v1/chat/completions`,
      headers: { 'content-type': 'application/json', authorization: 'Bearer bench-key' },
      body: chatBody(false),
    },
    valve: {
      url: `${valveUrl}/v1/reason`,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${valveKey}` },
      body: reasonBody,
    },
    door: {
      url: `${valveUrl}/openai/v1/chat/completions`,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${valveKey}` },
      body: doorBody(false),
    },
    ...(peer && {
      peer: {
        url: `${peer.url}/v1/chat/completions`,
        headers: {
          'content-type': 'application/json',
          authorization: 'Bearer bench-key',
          'x-portkey-provider': 'openai',
          'x-portkey-custom-host': `${upstreamUrl}/v1`,
        },
        body: chatBody(false),
      },
    }),
  };

  // What Valve's answer carries: the receipt is attached once the receipts pipeline is wired.
  const sample = await fetch(targets.valve.url, {
    method: 'POST',
    headers: targets.valve.headers,
    body: reasonBody,
  });
  /** @type {Record<string, unknown>} */
  const sampleBody = await sample.json();
  if (sample.status !== 200)
    throw new Error(`Valve answered ${sample.status}: ${JSON.stringify(sampleBody)}`);
  const receiptsOn = sampleBody.receipt !== undefined && sampleBody.receipt !== null;
  say(
    `Valve answers 200 from ${JSON.stringify(sampleBody.model)}; receipt ${receiptsOn ? 'present' : 'ABSENT'}`,
  );

  /** @type {Record<string, { fixedRate: import('./lib/load.js').LoadResult, max: import('./lib/load.js').LoadResult }>} */
  const load = {};
  for (const [name, target] of Object.entries(targets)) {
    await runLoad(target, { connections: 8, durationS: plan.warmupS });
    const fixedRate = await runLoad(target, {
      connections: Math.max(connections, Math.ceil(rate / 20)),
      durationS: plan.rateS,
      rate,
      maxRequests: rate * plan.rateS,
    });
    const max = await runLoad(target, { connections, durationS: plan.maxS, maxRequests: 200_000 });
    load[name] = { fixedRate, max };
    say(
      `${name}: @${rate}/s p50 ${fixedRate.latencyMs.p50} ms p99 ${fixedRate.latencyMs.p99} ms (${fixedRate.non2xx} non-2xx, ${fixedRate.errors} errors); max ${max.rps}/s p99 ${max.latencyMs.p99} ms`,
    );
  }

  /** @type {Record<string, Awaited<ReturnType<typeof measureTtfb>>>} */
  const ttfb = {};
  const streamTargets = {
    direct: { ...targets.direct, body: chatBody(true) },
    valve: { ...targets.valve, headers: { ...targets.valve.headers, accept: 'text/event-stream' } },
    door: { ...targets.door, body: doorBody(true) },
    ...(targets.peer && { peer: { ...targets.peer, body: chatBody(true) } }),
  };
  for (const [name, target] of Object.entries(streamTargets)) {
    ttfb[name] = await measureTtfb(target, { requests: plan.ttfbRequests, maxS: plan.ttfbS });
    const t = /** @type {Awaited<ReturnType<typeof measureTtfb>>} */ (ttfb[name]);
    say(
      `${name} stream: first byte p50 ${t.firstByteMs.p50} ms p99 ${t.firstByteMs.p99} ms (${t.contentType})`,
    );
  }

  const extras = runExtras(root, {
    quick,
    valveUrl,
    valveKey,
    upstream: upstreamUrl,
    timeoutS: quick ? 15 : 120,
  });

  const memory = {
    direct: peakMemory(Number(upstream.child.pid)),
    valve: peakMemory(Number(valve.child.pid)),
    ...(peer && { peer: peakMemory(Number(peer.child.pid)) }),
  };
  const loadAfter = loadNow();
  await cleanup();
  say('servers stopped');

  const micro = flag('no-micro')
    ? { ok: false, results: [], seconds: 0, error: '--no-micro' }
    : runMicro(root, plan.microTimeoutS);
  say(
    `micro-benchmarks: ${micro.results.length} results in ${micro.seconds}s${micro.error ? ` (${micro.error})` : ''}`,
  );

  const results = summarizeRun({
    machine,
    loadBefore,
    loadAfter,
    load,
    ttfb,
    memory,
    micro,
    extras,
    receiptsOn,
    peerInfo,
  });
  mkdirSync(outDir, { recursive: true });
  const date = new Date().toISOString().slice(0, 10);
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
      series: Object.entries(load).map(([name, l]) => ({
        name: labels[name] ?? name,
        percentiles: l.fixedRate.latencyMs.percentiles,
      })),
    }),
  );
  console.log(markdown);
  say(`wrote ${relative(root, join(outDir, `${stem}.json`))}, ${stem}.md and ${chartName}`);
}

/** @type {Record<string, string>} */
const labels = {
  direct: 'upstream, direct',
  valve: 'Valve (workerd)',
  door: 'Valve /openai/v1/chat/completions',
  peer: 'Portkey gateway',
};

/** @param {number} a @param {number} b */
const ratio = (a, b) =>
  Number.isFinite(a) && Number.isFinite(b) && b !== 0 ? Math.round((a / b) * 100) / 100 : null;
/** @param {number} x */
const ms = (x) => Math.round(x * 1000) / 1000;

/**
 * @param {{
 *   machine: ReturnType<typeof describeMachine>, loadBefore: number[], loadAfter: number[],
 *   load: Record<string, { fixedRate: import('./lib/load.js').LoadResult, max: import('./lib/load.js').LoadResult }>,
 *   ttfb: Record<string, Awaited<ReturnType<typeof measureTtfb>>>,
 *   memory: Record<string, import('./lib/processes.js').ProcessPeak[]>,
 *   micro: ReturnType<typeof runMicro>, extras: ReturnType<typeof runExtras>,
 *   receiptsOn: boolean, peerInfo: Record<string, unknown>,
 * }} run
 */
function summarizeRun(run) {
  const { load, ttfb, memory } = run;
  const direct = load.direct;
  const valve = load.valve;
  const peer = load.peer;
  const peakMiB = (/** @type {string} */ name) => {
    const peaks = memory[name] ?? [];
    // The server proper: workerd for Valve (its Node supervisor is listed apart), node for the others.
    const main = name === 'valve' ? peaks.find((p) => p.name === 'workerd') : peaks[0];
    return main ? Math.round((main.peakKiB / 1024) * 10) / 10 : null;
  };
  const servers = Object.fromEntries(
    Object.entries(load).map(([name, l]) => [
      name,
      {
        label: labels[name] ?? name,
        fixedRate: l.fixedRate,
        max: l.max,
        addedOverDirectMs: direct
          ? {
              p50: ms(l.fixedRate.latencyMs.p50 - direct.fixedRate.latencyMs.p50),
              p99: ms(l.fixedRate.latencyMs.p99 - direct.fixedRate.latencyMs.p99),
            }
          : null,
        peakRssMiB: peakMiB(name),
        processes: memory[name] ?? [],
        ttfb: ttfb[name] ?? null,
      },
    ]),
  );
  const appendRates = [
    ...run.micro.results.filter((r) => /append/i.test(`${r.file} ${r.group} ${r.name}`)).map((r) => r.hz),
    ...run.extras.flatMap((e) =>
      Array.isArray(e.result?.metrics)
        ? e.result.metrics
            .filter(
              (/** @type {{ name: string, unit?: string }} */ m) =>
                /append/i.test(m.name) && /\/s|per s/i.test(m.unit ?? ''),
            )
            .map((/** @type {{ value: number }} */ m) => m.value)
        : [],
    ),
  ];
  const logAppendsPerS = appendRates.length > 0 ? Math.max(...appendRates) : null;
  const ratios = {
    valveOverDirect:
      valve && direct
        ? {
            rps: ratio(valve.max.rps, direct.max.rps),
            p50: ratio(valve.fixedRate.latencyMs.p50, direct.fixedRate.latencyMs.p50),
            p99: ratio(valve.fixedRate.latencyMs.p99, direct.fixedRate.latencyMs.p99),
          }
        : null,
    valveOverPeer:
      valve && peer
        ? {
            rps: ratio(valve.max.rps, peer.max.rps),
            p50: ratio(valve.fixedRate.latencyMs.p50, peer.fixedRate.latencyMs.p50),
            p99: ratio(valve.fixedRate.latencyMs.p99, peer.fixedRate.latencyMs.p99),
            maxP99: ratio(valve.max.latencyMs.p99, peer.max.latencyMs.p99),
          }
        : null,
  };
  const added = servers.valve?.addedOverDirectMs;
  const targets = [
    {
      target: `added p50 over direct at ${rate}/s < 1 ms`,
      measured: added ? `${added.p50} ms` : 'n/a',
      met: added ? added.p50 < 1 : null,
    },
    {
      target: `added p99 over direct at ${rate}/s < 5 ms`,
      measured: added ? `${added.p99} ms` : 'n/a',
      met: added ? added.p99 < 5 : null,
    },
    {
      target: 'throughput ≥ 2× the peer',
      measured: ratios.valveOverPeer ? `${ratios.valveOverPeer.rps}×` : 'peer not measured',
      met: ratios.valveOverPeer?.rps != null ? ratios.valveOverPeer.rps >= 2 : null,
    },
    {
      target: `p99 lower than the peer (at ${rate}/s)`,
      measured: ratios.valveOverPeer
        ? `${valve?.fixedRate.latencyMs.p99} vs ${peer?.fixedRate.latencyMs.p99} ms`
        : 'peer not measured',
      met: valve && peer ? valve.fixedRate.latencyMs.p99 < peer.fixedRate.latencyMs.p99 : null,
    },
    {
      target: 'log appends ≥ 5,000/s',
      measured:
        logAppendsPerS === null
          ? 'not measured (no log-append benchmark yet)'
          : `${Math.round(logAppendsPerS)}/s`,
      met: logAppendsPerS === null ? null : logAppendsPerS >= 5000,
    },
  ];
  return {
    date: new Date().toISOString(),
    mode: quick ? 'quick' : 'full',
    command: `npm run bench${argv.length > 0 ? ` -- ${argv.join(' ')}` : ''}`,
    machine: { ...run.machine, loadAverageBefore: run.loadBefore, loadAverageAfter: run.loadAfter },
    conditions: {
      offeredRate: rate,
      connections,
      fixedRateSeconds: plan.rateS,
      maxSeconds: plan.maxS,
      upstreamLatencyMs,
      loadGenerator: 'autocannon (in the harness process, same machine)',
      valveRuntime:
        'workerd via Miniflare, production bundle (wrangler deploy --dry-run), local D1 and SQLite Durable Objects',
      valveState: state === 'shm' ? 'tmpfs (/dev/shm)' : 'disk (OS temp dir)',
      receiptsOn: run.receiptsOn,
    },
    peer: { package: peerPackage, ...run.peerInfo },
    servers,
    ratios,
    targets,
    micro: run.micro,
    extras: run.extras,
  };
}

/** @param {ReturnType<typeof summarizeRun>} r */
function toMarkdown(r) {
  const m = r.machine;
  const c = r.conditions;
  /** @param {number | null | undefined} x @param {string} [unit] */
  const v = (x, unit = '') => (x === null || x === undefined || Number.isNaN(x) ? '—' : `${x}${unit}`);
  const lines = [
    `Measured ${r.date.slice(0, 16).replace('T', ' ')} UTC with \`${r.command}\` on ${m.cpus}× ${m.cpuModel}, ${m.memoryGiB} GiB, Node ${m.node}; load average ${m.loadAverageBefore.join(' / ')} before, ${m.loadAverageAfter.join(' / ')} after. Fake upstream latency ${c.upstreamLatencyMs} ms; latency at ${c.offeredRate} requests/s offered for ${c.fixedRateSeconds} s; throughput unthrottled with ${c.connections} connections for ${c.maxSeconds} s. Valve: ${c.valveRuntime}, state on ${c.valveState}; receipts ${c.receiptsOn ? 'on' : 'not yet issued by the pipeline'}. Peer: ${r.peer.package}@${r.peer.version} (${r.peer.status}${r.peer.reason ? `: ${String(r.peer.reason).split('\n')[0]}` : ''}).`,
    '',
    `| server | p50 @${c.offeredRate}/s | p99 @${c.offeredRate}/s | added p50 | added p99 | max req/s | p99 at max | stream first byte p50 / p99 | peak RSS |`,
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const s of Object.values(r.servers)) {
    const t = s.ttfb;
    lines.push(
      `| ${s.label} | ${v(s.fixedRate.latencyMs.p50, ' ms')} | ${v(s.fixedRate.latencyMs.p99, ' ms')} | ${v(s.addedOverDirectMs?.p50, ' ms')} | ${v(s.addedOverDirectMs?.p99, ' ms')} | ${v(s.max.rps)} | ${v(s.max.latencyMs.p99, ' ms')} | ${t ? `${v(t.firstByteMs.p50)} / ${v(t.firstByteMs.p99)} ms${t.streamed ? '' : ' (not streamed)'}` : '—'} | ${v(s.peakRssMiB, ' MiB')} |`,
    );
  }
  const errors = Object.entries(r.servers)
    .filter(([, s]) => s.fixedRate.non2xx + s.fixedRate.errors + s.max.non2xx + s.max.errors > 0)
    .map(
      ([name, s]) =>
        `${name}: ${s.fixedRate.non2xx + s.max.non2xx} non-2xx, ${s.fixedRate.errors + s.max.errors} errors`,
    );
  if (errors.length > 0) lines.push('', `Failed requests (not counted in latency): ${errors.join('; ')}.`);
  const vd = r.ratios.valveOverDirect;
  const vp = r.ratios.valveOverPeer;
  lines.push(
    '',
    `Ratios — Valve/direct: throughput ${v(vd?.rps, '×')}, p50 ${v(vd?.p50, '×')}, p99 ${v(vd?.p99, '×')}. Valve/peer: throughput ${v(vp?.rps, '×')}, p50 ${v(vp?.p50, '×')}, p99 ${v(vp?.p99, '×')} (at max load ${v(vp?.maxP99, '×')}).`,
    '',
    '| target | measured | met |',
    '| --- | --- | --- |',
    ...r.targets.map(
      (t) => `| ${t.target} | ${t.measured} | ${t.met === null ? '—' : t.met ? 'yes' : 'no'} |`,
    ),
  );
  if (r.micro.results.length > 0) {
    lines.push('', '| micro-benchmark | ops/s | median | p99 |', '| --- | ---: | ---: | ---: |');
    for (const b of r.micro.results) {
      lines.push(
        `| ${b.file.replace('bench/micro/', '')}: ${b.name} | ${Math.round(b.hz).toLocaleString('en')} | ${b.medianMs} ms | ${b.p99Ms} ms |`,
      );
    }
  } else {
    lines.push('', `Micro-benchmarks: not run (${r.micro.error ?? 'none found'}).`);
  }
  for (const e of r.extras) {
    lines.push('', `Extra \`${e.file}\`: ${e.ok ? JSON.stringify(e.result) : `failed — ${e.error}`}`);
  }
  return `${lines.join('\n')}\n`;
}

try {
  await main();
} catch (error) {
  console.error(`bench failed: ${error instanceof Error ? error.stack : String(error)}`);
  await cleanup();
  process.exit(1);
}
