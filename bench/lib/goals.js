// The fast-path goals in one table: each with its target, what this run measured, the ratio it is
// judged by (to a peer, to direct, to the runtime's floor or to the deploy bundle, all from the same
// run) and whether it is met. A goal whose measurement is missing says why ("LiteLLM not measured",
// "not instrumented"); the floor's rows have no target: they say how near the runtime's best Valve is.
import { productionEstimateMs, productionLatencyMs } from './round-trips.js';

/**
 * @typedef {{ goal: string, target: string, measured: string, ratio: string, met: boolean | null }} GoalRow
 * @typedef {import('./load.js').LoadResult} LoadResult
 * @typedef {{ instrumented: false, failures: number } | { instrumented: true, failures: number, samples: number, median: number, p90: number, mean: number, max: number, perRequest: Record<string, number> }} Trips
 */

/** The peer gateways, each judged by the same goals: the key of its figures, its name, its processes. */
const peers = /** @type {const} */ ([
  { key: 'peer', name: 'Portkey', processes: 'Portkey’s Node', missing: 'Portkey not measured' },
  { key: 'litellm', name: 'LiteLLM', processes: 'LiteLLM’s processes', missing: 'LiteLLM not measured' },
]);

/** @param {number | null | undefined} a @param {number | null | undefined} b */
export const ratioOf = (a, b) =>
  typeof a === 'number' && typeof b === 'number' && Number.isFinite(a) && Number.isFinite(b) && b !== 0
    ? Math.round((a / b) * 100) / 100
    : null;
/** @param {number} x */
const r2 = (x) => Math.round(x * 100) / 100;
/** @param {number | null} x @param {string} unit */
const show = (x, unit) => (x === null ? '—' : `${x}${unit}`);

/**
 * @param {{
 *   rate: number,
 *   max: Record<string, LoadResult | undefined>,
 *   fixed: Record<string, LoadResult | undefined>,
 *   tail?: Record<string, LoadResult | undefined>,
 *   cpuMsPerRequest: Record<string, number | null | undefined>,
 *   ttfbP50: Record<string, number | undefined>,
 *   trips: { plain?: Trips, receiptId?: Trips, capped?: Trips, door?: Trips, anthropic?: Trips },
 *   logAppends: { perSecond: number | null, perCpuSecond: number | null },
 *   logShards?: import('../log-shards.js').ShardsResult | null,
 *   facade: 'absent' | 'measured' | 'not run',
 *   anthropicDoor?: 'absent' | 'measured' | 'not run',
 * }} m
 * @returns {GoalRow[]}
 */
export function goalRows(m) {
  const { max, fixed } = m;
  /** @type {GoalRow[]} */
  const rows = [];
  const floorMissing = 'floor not measured';

  for (const peer of peers) {
    const theirs = max[peer.key];
    const rps = ratioOf(max.valve?.rps, theirs?.rps);
    rows.push({
      goal: 'throughput, receipts + log + rate limit + usage on',
      target: `≥ 2× ${peer.name}`,
      measured: `${show(max.valve?.rps ?? null, ' req/s')} vs ${show(theirs?.rps ?? null, ' req/s')}`,
      ratio: theirs ? show(rps, '×') : peer.missing,
      met: rps === null ? null : rps >= 2,
    });
  }
  // The floor is no goal to meet: it says how much of the runtime's best Valve keeps.
  const ofFloor = ratioOf(max.valve?.rps, max.floor?.rps);
  rows.push({
    goal: 'throughput as a fraction of the runtime’s floor (a Worker that only forwards)',
    target: '—',
    measured: `${show(max.valve?.rps ?? null, ' req/s')} vs ${show(max.floor?.rps ?? null, ' req/s')}`,
    ratio: max.floor ? show(ofFloor, '× floor') : floorMissing,
    met: null,
  });
  for (const peer of peers) {
    const theirs = max[peer.key];
    const p99 = ratioOf(max.valve?.latencyMs.p99, theirs?.latencyMs.p99);
    rows.push({
      goal: 'p99 at the same load',
      target: `< ${peer.name}`,
      measured: `${show(max.valve?.latencyMs.p99 ?? null, ' ms')} vs ${show(theirs?.latencyMs.p99 ?? null, ' ms')}`,
      ratio: theirs ? show(p99, '×') : peer.missing,
      met: p99 === null ? null : p99 < 1,
    });
  }
  const tailValve = m.tail?.valve;
  if (tailValve) {
    for (const peer of peers) {
      const tailPeer = m.tail?.[peer.key];
      const tailP99 = ratioOf(tailValve.latencyMs.p99, tailPeer?.latencyMs.p99);
      rows.push({
        goal: '… the same p99 from a Node client (autocannon) instead of wrk',
        target: `< ${peer.name}`,
        measured: `${show(tailValve.latencyMs.p99, ' ms')} at ${tailValve.rps} req/s vs ${show(tailPeer?.latencyMs.p99 ?? null, ' ms')} at ${show(tailPeer?.rps ?? null, ' req/s')}`,
        ratio: tailPeer ? show(tailP99, '×') : peer.missing,
        met: tailP99 === null ? null : tailP99 < 1,
      });
    }
  }
  const portkey = max.peer;
  const capped = ratioOf(max.capped?.rps, portkey?.rps);
  rows.push({
    goal: 'throughput, capped tenant (budget lease + settlement)',
    target: '≥ 1× Portkey',
    measured: `${show(max.capped?.rps ?? null, ' req/s')} vs ${show(portkey?.rps ?? null, ' req/s')}`,
    ratio: portkey ? show(capped, '×') : peers[0].missing,
    met: capped === null ? null : capped >= 1,
  });
  const cpuValve = m.cpuMsPerRequest.valve ?? null;
  for (const peer of peers) {
    const theirs = m.cpuMsPerRequest[peer.key] ?? null;
    const cpu = ratioOf(cpuValve, theirs);
    rows.push({
      goal: `server CPU per request (workerd vs ${peer.processes}, /proc)`,
      target: `≤ ${peer.name}`,
      measured: `${show(cpuValve, ' ms')} vs ${show(theirs, ' ms')}`,
      ratio: theirs === null ? peer.missing : show(cpu, '×'),
      met: cpu === null ? null : cpu <= 1,
    });
  }
  const cpuFloor = m.cpuMsPerRequest.floor ?? null;
  rows.push({
    goal: 'server CPU per request over the runtime’s floor (workerd, both)',
    target: '—',
    measured: `${show(cpuValve, ' ms')} vs ${show(cpuFloor, ' ms')} (Valve’s own work ${show(cpuValve === null || cpuFloor === null ? null : r2(cpuValve - cpuFloor), ' ms')})`,
    ratio: cpuFloor === null ? floorMissing : show(ratioOf(cpuValve, cpuFloor), '× floor'),
    met: null,
  });
  rows.push(...tripRows(m));
  for (const [name, label] of /** @type {const} */ ([
    ['valve', 'added latency over direct, /v1/reason'],
    ['door', 'added latency over direct, /openai/v1/chat/completions'],
    ['anthropic', 'added latency over direct, /anthropic/v1/messages'],
  ])) {
    const over = fixed[name];
    const direct = fixed.direct;
    const door =
      name === 'door' ? m.facade : name === 'anthropic' ? (m.anthropicDoor ?? 'not run') : 'measured';
    if (door !== 'measured') {
      const why = door === 'absent' ? 'not present (404)' : 'not run';
      rows.push({
        goal: `${label}, p50 / p99`,
        target: '< 2 ms / < 10 ms',
        measured: why,
        ratio: '—',
        met: null,
      });
      continue;
    }
    const p50 = over && direct ? r2(over.latencyMs.p50 - direct.latencyMs.p50) : null;
    const p99Added = over && direct ? r2(over.latencyMs.p99 - direct.latencyMs.p99) : null;
    rows.push({
      goal: `${label} at ${m.rate} req/s, p50 / p99`,
      target: '< 2 ms / < 10 ms',
      measured: `${show(p50, ' ms')} / ${show(p99Added, ' ms')}`,
      ratio: `${show(ratioOf(over?.latencyMs.p50, direct?.latencyMs.p50), '×')} / ${show(ratioOf(over?.latencyMs.p99, direct?.latencyMs.p99), '×')} direct`,
      met: p50 === null || p99Added === null ? null : p50 < 2 && p99Added < 10,
    });
  }
  const ttfb =
    m.ttfbP50.valve !== undefined && m.ttfbP50.direct !== undefined
      ? r2(m.ttfbP50.valve - m.ttfbP50.direct)
      : null;
  rows.push({
    goal: 'streaming first byte added over direct (p50)',
    target: '< 2 ms',
    measured: show(ttfb, ' ms'),
    ratio: `${show(ratioOf(m.ttfbP50.valve, m.ttfbP50.direct), '×')} direct`,
    met: ttfb === null ? null : ttfb < 2,
  });
  const start = ratioOf(max.npmStart?.rps, max.valve?.rps);
  rows.push({
    goal: '`npm start` throughput vs the deploy bundle',
    target: 'within 10% (≥ 0.9×)',
    // CPU per request too: on a busy machine it is the steadier of the two.
    measured: `${show(max.npmStart?.rps ?? null, ' req/s')} vs ${show(max.valve?.rps ?? null, ' req/s')}; CPU ${show(m.cpuMsPerRequest.npmStart ?? null, ' ms')} vs ${show(m.cpuMsPerRequest.valve ?? null, ' ms')} per request`,
    ratio: `${show(start, '×')} (CPU ${show(ratioOf(m.cpuMsPerRequest.npmStart, m.cpuMsPerRequest.valve), '×')})`,
    met: start === null ? null : start >= 0.9,
  });
  const { perSecond, perCpuSecond } = m.logAppends;
  rows.push({
    goal: 'log appends, batched Durable Object',
    target: '≥ 10,000/s',
    measured: `${show(perSecond, '/s')} (${show(perCpuSecond, ' per workerd CPU-second')})`,
    ratio: show(ratioOf(perSecond, 10_000), '× target'),
    met: perSecond === null ? null : perSecond >= 10_000,
  });
  rows.push(shardRow(m.logShards ?? null));
  return rows;
}

/**
 * Whether log shards cost anything per append: the most shards against one, all in one workerd process,
 * judged by appends per workerd CPU-second (flat when the shards are independent). One process keeps
 * one core busy at every count, so the CPU an append takes is compared on a machine equally loaded; a
 * process each fills more cores as the count grows, and on a shared VM the CPU an append takes rises
 * when every core is busy. A process each's growth in appends per second is shown beside it, with the
 * most this machine's cores allow.
 * @param {import('../log-shards.js').ShardsResult | null} shards
 * @returns {GoalRow}
 */
function shardRow(shards) {
  const target = 'appends per workerd CPU-second ≥ 0.9× one shard’s';
  /** @param {import('../log-shards.js').Layout} layout */
  const ends = (layout) => {
    const runs = shards?.runs.filter((r) => r.layout === layout) ?? [];
    const one = runs.find((r) => r.shards === 1);
    const most = runs.reduce((a, r) => (r.shards > (a?.shards ?? 0) ? r : a), one);
    return one && most && most !== one ? { one, most } : null;
  };
  const shared = ends('one process');
  const each = ends('a process each');
  if (!shards || !shared) {
    return {
      goal: 'log appends by shard count, CPU per append',
      target,
      measured: 'not run',
      ratio: '—',
      met: null,
    };
  }
  const { one, most } = shared;
  const perCpu = ratioOf(most.appendsPerCpuSecond, one.appendsPerCpuSecond);
  const apart = each
    ? `; a process each: ${each.most.perSecond}/s vs ${each.one.perSecond}/s (${show(each.most.speedup, '×')}, at most ${each.most.bound}× on ${shards.cores} cores), ${show(ratioOf(each.most.appendsPerCpuSecond, each.one.appendsPerCpuSecond), '×')} per CPU-second`
    : '';
  return {
    goal: `log appends by shard count, CPU per append, ${most.shards} shards vs 1 in one workerd process`,
    target,
    measured: `${show(most.appendsPerCpuSecond, '')} vs ${show(one.appendsPerCpuSecond, '')} per CPU-second${apart}`,
    ratio: show(perCpu, '× per CPU-second'),
    met: perCpu === null ? null : perCpu >= 0.9,
  };
}

/** @param {Parameters<typeof goalRows>[0]} m @returns {GoalRow[]} */
function tripRows(m) {
  /** @type {GoalRow[]} */
  const rows = [];
  const cases = /** @type {const} */ ([
    ['plain', 'without receiptId or cap', 1],
    ['receiptId', 'with a caller receiptId', 2],
    ['capped', 'capped tenant', 2],
  ]);
  for (const [name, label, limit] of cases) {
    const trips = m.trips[name];
    if (!trips?.instrumented) {
      rows.push({
        goal: `storage round trips in series per request, ${label}`,
        target: `≤ ${limit}`,
        measured: trips ? 'not instrumented (no Server-Timing header)' : 'not run',
        ratio: '—',
        met: null,
      });
      continue;
    }
    const kinds = Object.entries(trips.perRequest)
      .map(([kind, n]) => `${kind} ${n}`)
      .join(', ');
    rows.push({
      goal: `storage round trips in series per request, ${label}`,
      target: `≤ ${limit}`,
      // Judged by the 90th percentile: the rare request that refreshes an isolate's cache (an API key,
      // a rate-limit or budget lease, the health snapshot every few seconds) waits on one more, and the
      // mean and max say how often and how many.
      measured: `p90 ${trips.p90}, mean ${trips.mean}, max ${trips.max} (mean per request: ${kinds || 'none'})`,
      ratio: show(ratioOf(trips.p90, limit), '× limit'),
      met: trips.p90 <= limit,
    });
  }
  const plain = m.trips.plain;
  const cpu = m.cpuMsPerRequest.valve ?? null;
  const estimate = plain?.instrumented ? productionEstimateMs(cpu, plain.perRequest) : null;
  const latencies = Object.entries(productionLatencyMs)
    .map(([kind, ms]) => `${kind} ${ms} ms`)
    .join(', ');
  rows.push({
    goal: 'production estimate, added per request without receiptId or cap',
    target: 'CPU + round trips × latency',
    measured: plain?.instrumented
      ? `${show(estimate, ' ms')} (CPU ${show(cpu, ' ms')}; round trips at ${latencies})`
      : `not instrumented (CPU ${show(cpu, ' ms')}; round trips would count at ${latencies})`,
    ratio: '—',
    met: null,
  });
  return rows;
}

/** @param {GoalRow[]} rows */
export function goalsMarkdown(rows) {
  return [
    '| goal | target | measured | ratio | met |',
    '| --- | --- | --- | --- | --- |',
    ...rows.map(
      (r) =>
        `| ${r.goal} | ${r.target} | ${r.measured} | ${r.ratio} | ${r.met === null ? '—' : r.met ? 'yes' : 'no'} |`,
    ),
  ].join('\n');
}
