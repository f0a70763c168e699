// The bench's markdown: the goals table first (bench/lib/goals.js), then each server's figures, the
// micro-benchmarks and the extra scripts' results.
import { doorsMarkdown } from './doors.js';
import { goalsMarkdown } from './goals.js';

/** @type {Record<string, string>} */
export const labels = {
  direct: 'upstream, direct',
  valve: 'Valve, deploy bundle (workerd)',
  capped: 'Valve, capped tenant',
  npmStart: 'Valve, `npm start`',
  door: 'Valve, OpenAI door (/openai/v1/chat/completions)',
  anthropic: 'Valve, Anthropic door (/anthropic/v1/messages)',
  peer: 'Portkey gateway',
  litellm: 'LiteLLM proxy',
  floor: 'floor: a Worker that only forwards (workerd)',
};

/** What ran beside Valve: each peer's package and version, the floor, and why one did not run. */
function taking(/** @type {Parameters<typeof toMarkdown>[0]} */ r) {
  const status = (/** @type {Record<string, unknown>} */ x) =>
    `${x.status}${x.reason ? `: ${String(x.reason).split('\n')[0]}` : ''}`;
  const { peer, litellm, floor } = r;
  const parts = [`Peers: ${peer.package}@${peer.version} (${status(peer)})`];
  if (litellm) {
    const workers = Number(litellm.workers);
    parts.push(
      `${litellm.package}==${litellm.version}, ${workers} uvicorn worker${workers === 1 ? '' : 's'}${litellm.python ? `, Python ${litellm.python}` : ''} (${status(litellm)})`,
    );
  }
  return `${parts.join('; ')}.${floor ? ` Floor: \`${floor.worker}\` (${status(floor)}).` : ''}`;
}

/** @param {number | null | undefined} x @param {string} [unit] */
const v = (x, unit = '') => (x === null || x === undefined || Number.isNaN(x) ? '—' : `${x}${unit}`);

/**
 * @param {{
 *   date: string, command: string,
 *   machine: ReturnType<typeof import('./machine.js').describeMachine> & { loadAverageBefore: number[], loadAverageAfter: number[] },
 *   conditions: Record<string, unknown> & { offeredRate: number, connections: number, fixedRateSeconds: number, maxSeconds: number, maxRounds?: number, upstreamLatencyMs: number, loadGenerator: string },
 *   peer: Record<string, unknown>,
 *   litellm?: Record<string, unknown>,
 *   floor?: Record<string, unknown>,
 *   goals: import('./goals.js').GoalRow[],
 *   doors?: import('./doors.js').DoorRow[],
 *   servers: Record<string, { label: string, fixedRate?: import('./load.js').LoadResult, max?: import('./load.js').LoadResult, cpuMsPerRequest: number | null, mainThread?: { running: number, disk: number, idle: number } | null, writtenKiBPerRequest?: number | null, peakRssMiB: number | null, ttfb?: { firstByteMs: { p50: number, p99: number }, streamed: boolean } | null }>,
 *   micro: { results: import('./micro.js').MicroResult[], error?: string },
 *   extras: { file: string, ok: boolean, result?: unknown, error?: string }[],
 *   logShards?: { file: string, ok: boolean, result?: import('../log-shards.js').ShardsResult, error?: string } | null,
 *   witnessRounds?: { file: string, ok: boolean, result?: import('../witness-round.js').WitnessRoundResult, error?: string } | null,
 * }} r
 */
export function toMarkdown(r) {
  const m = r.machine;
  const c = r.conditions;
  const lines = [
    `Measured ${r.date.slice(0, 16).replace('T', ' ')} UTC with \`${r.command}\` on ${m.cpus}× ${m.cpuModel}, ${m.memoryGiB} GiB, Node ${m.node}; load average ${m.loadAverageBefore.join(' / ')} before, ${m.loadAverageAfter.join(' / ')} after. Fake upstream latency ${c.upstreamLatencyMs} ms; latency at ${c.offeredRate} requests/s offered for ${c.fixedRateSeconds} s (paced open loop, one request every 1/rate s); throughput unthrottled with ${c.connections} connections for ${c.maxSeconds} s${c.maxRounds ? ` in ${c.maxRounds} rounds, every target once a round, the order reversed each round` : ''} (${c.loadGenerator}). ${taking(r)}`,
    '',
    goalsMarkdown(r.goals),
    '',
    `| server | p50 @${c.offeredRate}/s | p99 @${c.offeredRate}/s | max req/s | p50 / p99 at max | CPU per request | written to disk per request | main thread at max: running / disk wait / idle | stream first byte p50 / p99 | peak RSS |`,
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const s of Object.values(r.servers)) {
    const t = s.ttfb;
    const f = s.fixedRate;
    // A server that cannot keep up with the offered rate is timed in its own queue: say how far behind.
    const behind = f?.offeredRate && f.rps < f.offeredRate * 0.95 ? ` (answered ${f.rps}/s)` : '';
    lines.push(
      `| ${s.label} | ${v(f?.latencyMs.p50, ' ms')}${behind} | ${v(f?.latencyMs.p99, ' ms')} | ${v(s.max?.rps)} | ${s.max ? `${v(s.max.latencyMs.p50)} / ${v(s.max.latencyMs.p99)} ms` : '—'} | ${v(s.cpuMsPerRequest, ' ms')} | ${v(s.writtenKiBPerRequest, ' KiB')} | ${s.mainThread ? `${s.mainThread.running} / ${s.mainThread.disk} / ${s.mainThread.idle} %` : '—'} | ${t ? `${v(t.firstByteMs.p50)} / ${v(t.firstByteMs.p99)} ms${t.streamed ? '' : ' (not streamed)'}` : '—'} | ${v(s.peakRssMiB, ' MiB')} |`,
    );
  }
  const failed = Object.entries(r.servers)
    .map(([name, s]) => {
      const runs = [s.fixedRate, s.max].filter((x) => x !== undefined);
      const non2xx = runs.reduce((n, x) => n + x.non2xx, 0);
      const errors = runs.reduce((n, x) => n + x.errors, 0);
      return non2xx + errors > 0 ? `${name}: ${non2xx} non-2xx, ${errors} errors` : '';
    })
    .filter(Boolean);
  if (failed.length > 0) lines.push('', `Failed requests (not counted in latency): ${failed.join('; ')}.`);
  if (r.doors) lines.push('', ...doorsMarkdown(r.doors, c.offeredRate));
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
  if (r.logShards) lines.push('', ...logShardsMarkdown(r.logShards));
  if (r.witnessRounds) lines.push('', ...witnessRoundsMarkdown(r.witnessRounds));
  for (const e of r.extras) {
    lines.push('', `Extra \`${e.file}\`: ${e.ok ? JSON.stringify(e.result) : `failed — ${e.error}`}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The table "Log appends by shard count" (bench/log-shards.js) and how to read it on this machine.
 * @param {NonNullable<Parameters<typeof toMarkdown>[0]['logShards']>} e
 * @returns {string[]}
 */
export function logShardsMarkdown(e) {
  const s = e.result;
  if (!e.ok || !s) return ['### Log appends by shard count', '', `\`${e.file}\` failed — ${e.error}`];
  const most = (/** @type {(run: (typeof s.runs)[number]) => number | null} */ f) =>
    Math.max(...s.runs.map((run) => f(run) ?? 0));
  const generator = most((run) => run.coresBusy.loadGenerator);
  const other = most((run) => run.coresBusy.other);
  const n = (/** @type {number} */ x) => x.toLocaleString('en');
  return [
    '### Log appends by shard count',
    '',
    `\`${e.file}\`: each shard its own ReceiptLog Durable Object; ${s.clients} clients each keep one request of ${s.perRequest} appends in flight, round-robin over the shards; ${n(s.appendsPerRun)} appends a row, in ${s.passes} passes (the counts ascending, then descending). Load average ${s.loadAverage.before.join(' / ')} before, ${s.loadAverage.after.join(' / ')} after.`,
    '',
    `| shards | layout | appends/s | × 1 shard | at most, on ${s.cores} cores | workerd CPU per append | appends per workerd CPU-second | cores busy: workerd / load generator / other work | mean batch |`,
    '| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...s.runs.map(
      (run) =>
        `| ${run.shards} | ${run.layout} | ${n(run.perSecond)} | ${v(run.speedup, '×')} | ${run.bound}× | ${v(run.workerdCpuUsPerAppend, ' µs')} | ${run.appendsPerCpuSecond === null ? '—' : n(run.appendsPerCpuSecond)} | ${v(run.coresBusy.workerd)} / ${run.coresBusy.loadGenerator} / ${v(run.coresBusy.other)} | ${n(run.meanBatch)} |`,
    ),
    '',
    `One process runs every shard on workerd's one thread, so it cannot grow with shards; keeping one core busy at every count, its appends per workerd CPU-second say what sharding costs per append, and stay flat when the shards are independent (the goals table's row). A process each can grow only up to about ${s.cores}× one shard on this machine's ${s.cores} cores, less what the load generator and other work take; once its processes and the load generator fill every core, the CPU an append takes may rise (on a shared VM it has, by up to a quarter), so judge what sharding costs by one process's figure. In production each object runs on a thread of its own, and appends per second grow with the shards up to one object's rate each. The load generator (the bench's Node process) used at most ${generator} of a core${generator >= 0.8 ? ', near the one it has: it bounds the rates above' : ', so it is not what bounds the rates'}; other work (other processes, the kernel, the hypervisor's steal) took up to ${other} cores.`,
  ];
}

/**
 * The table "Witness rounds" (bench/witness-round.js): what one round costs with 1 and 2 witnesses,
 * and the appends per second of a shard with witnesses beside one without.
 * @param {NonNullable<Parameters<typeof toMarkdown>[0]['witnessRounds']>} e
 * @returns {string[]}
 */
export function witnessRoundsMarkdown(e) {
  const w = e.result;
  if (!e.ok || !w) return ['### Witness rounds', '', `\`${e.file}\` failed — ${e.error}`];
  const n = (/** @type {number} */ x) => x.toLocaleString('en');
  const first = w.runs[0];
  const none = w.appends.runs.find((run) => run.witnesses === 0);
  const witnessed = w.appends.runs.find((run) => run.witnesses > 0);
  return [
    '### Witness rounds',
    '',
    `\`${e.file}\`: one shard (ReceiptLog in local workerd) pushes its latest checkpoint to valve-witness processes on this machine, ${first ? `${n(first.rounds)} rounds per row, each after ${first.appendsPerRound} appends` : 'no rounds'}; every witness cosigned every round. Load average ${w.loadAverage.before.join(' / ')} before, ${w.loadAverage.after.join(' / ')} after (${w.cores} cores).`,
    '',
    '| witnesses | round wall p50 / p90 | as the object timed it p50 / p90 | workerd CPU per round | witness CPU per round (all witnesses) |',
    '| ---: | ---: | ---: | ---: | ---: |',
    ...w.runs.map(
      (run) =>
        `| ${run.witnesses} | ${run.wallMs.median} / ${run.wallMs.p90} ms | ${run.objectMs.median} / ${run.objectMs.p90} ms | ${v(run.workerdCpuMsPerRound, ' ms')} | ${v(run.witnessCpuMsPerRound, ' ms')} |`,
    ),
    '',
    '| witnesses | LOG_WITNESS_DELAY_MS | appends/s | workerd CPU per append | witness CPU during the appends |',
    '| ---: | ---: | ---: | ---: | ---: |',
    ...w.appends.runs.map(
      (run) =>
        `| ${run.witnesses} | ${run.delayMs === null ? '—' : n(run.delayMs)} | ${n(run.perSecond)} | ${v(run.workerdCpuUsPerAppend, ' µs')} | ${v(run.witnessCpuMs, ' ms')} |`,
    ),
    '',
    `A round is one POST /add-checkpoint per witness, in parallel (each witness checks the log's signature and a consistency proof, cosigns and syncs its state file), and the object verifies and stores the cosignatures; CPU is read from /proc in 10 ms ticks, so per-round figures are means over the rounds. The appends rows (${w.appends.clients} clients, one request of ${w.appends.perRequest} appends each in flight, ${w.appends.passes} passes alternating the order) compare one shard without witnesses to one with ${witnessed?.witnesses ?? 0} at the default delay, where an alarm round runs at most once a second among the appends: ${none && witnessed ? `${w.appends.ratio}× the appends per second` : 'not measured'}; a difference of a few percent is within this machine's noise.`,
  ];
}
