import { describe, expect, it } from 'vitest';
import { goalRows } from '../../../bench/lib/goals.js';

type Measured = Parameters<typeof goalRows>[0];
type Result = NonNullable<Measured['max'][string]>;

const result = (rps: number, p99: number): Result => ({
  requests: rps * 10,
  rps,
  ok: rps * 10,
  non2xx: 0,
  errors: 0,
  timeouts: 0,
  durationS: 10,
  offeredRate: null,
  connections: 16,
  latencyMs: {
    count: rps * 10,
    mean: p99 / 3,
    p50: p99 / 4,
    p90: p99 / 2,
    p99,
    max: p99 * 2,
    percentiles: {},
  },
});

const measured = (tail?: Measured['tail']): Measured => ({
  rate: 200,
  max: { valve: result(1500, 80), peer: result(1000, 40) },
  fixed: {},
  ...(tail && { tail }),
  cpuMsPerRequest: { valve: 0.6, peer: 1.2 },
  ttfbP50: {},
  trips: {},
  logAppends: { perSecond: null, perCpuSecond: null },
  facade: 'not run',
});

const row = (rows: ReturnType<typeof goalRows>, goal: string) => rows.find((r) => r.goal.startsWith(goal));

describe('goalRows', () => {
  it("judges the p99 at 16 connections by wrk's figures", () => {
    const p99 = row(goalRows(measured()), 'p99 at the same load');
    expect(p99).toMatchObject({ ratio: '2×', met: false, measured: '80 ms vs 40 ms' });
  });

  it("adds the Node client's p99 beside wrk's, each judged against Portkey's from the same client", () => {
    const rows = goalRows(measured({ valve: result(1300, 20), peer: result(1100, 27) }));
    expect(row(rows, 'p99 at the same load')?.met).toBe(false);
    expect(row(rows, '… the same p99 from a Node client')).toMatchObject({
      target: '< Portkey',
      measured: '20 ms at 1300 req/s vs 27 ms at 1100 req/s',
      ratio: '0.74×',
      met: true,
    });
    const behind = goalRows(measured({ valve: result(1300, 30), peer: result(1100, 27) }));
    expect(row(behind, '… the same p99 from a Node client')).toMatchObject({ ratio: '1.11×', met: false });
  });

  it('says so when the peer was not measured, and leaves the row out without the Node run', () => {
    const alone = goalRows(measured({ valve: result(1300, 20) }));
    expect(row(alone, '… the same p99 from a Node client')).toMatchObject({
      ratio: 'Portkey not measured',
      met: null,
    });
    expect(row(goalRows(measured()), '… the same p99 from a Node client')).toBeUndefined();
  });

  it('judges Valve against LiteLLM by the same goals as against Portkey, in rows of their own', () => {
    const m = measured({ valve: result(1300, 20), peer: result(1100, 27), litellm: result(100, 300) });
    m.max.litellm = result(120, 400);
    m.cpuMsPerRequest.litellm = 9;
    const rows = goalRows(m);
    const against = (goal: string) => rows.filter((r) => r.goal.startsWith(goal)).map((r) => r.target);
    expect(against('throughput, receipts')).toEqual(['≥ 2× Portkey', '≥ 2× LiteLLM']);
    expect(against('p99 at the same load')).toEqual(['< Portkey', '< LiteLLM']);
    expect(against('… the same p99 from a Node client')).toEqual(['< Portkey', '< LiteLLM']);
    expect(rows.find((r) => r.target === '≥ 2× LiteLLM')).toMatchObject({
      measured: '1500 req/s vs 120 req/s',
      ratio: '12.5×',
      met: true,
    });
    expect(rows.find((r) => r.goal.includes('LiteLLM’s processes'))).toMatchObject({
      measured: '0.6 ms vs 9 ms',
      ratio: '0.07×',
      met: true,
    });
    const withoutLitellm = goalRows(measured());
    expect(withoutLitellm.find((r) => r.target === '≥ 2× LiteLLM')).toMatchObject({
      ratio: 'LiteLLM not measured',
      met: null,
    });
  });

  it("reads Valve's throughput and CPU as a fraction and a multiple of the floor's, with no target", () => {
    const m = measured();
    m.max.floor = result(6000, 10);
    m.cpuMsPerRequest.floor = 0.15;
    expect(row(goalRows(m), 'throughput as a fraction of the runtime’s floor')).toMatchObject({
      measured: '1500 req/s vs 6000 req/s',
      ratio: '0.25× floor',
      met: null,
    });
    expect(row(goalRows(m), 'server CPU per request over the runtime’s floor')).toMatchObject({
      measured: '0.6 ms vs 0.15 ms (Valve’s own work 0.45 ms)',
      ratio: '4× floor',
      met: null,
    });
    expect(row(goalRows(measured()), 'throughput as a fraction')?.ratio).toBe('floor not measured');
  });

  it('gives each door’s added latency over direct its own row, a door not measured said so', () => {
    const m = measured();
    m.fixed.direct = { ...result(200, 7), latencyMs: { ...result(200, 7).latencyMs, p50: 1 } };
    m.fixed.anthropic = { ...result(200, 49), latencyMs: { ...result(200, 49).latencyMs, p50: 4.5 } };
    m.anthropicDoor = 'measured';
    expect(row(goalRows(m), 'added latency over direct, /anthropic/v1/messages')).toMatchObject({
      measured: '3.5 ms / 42 ms',
      met: false,
    });
    expect(row(goalRows(m), 'added latency over direct, /openai/v1/chat/completions')).toMatchObject({
      measured: 'not run',
      met: null,
    });
    expect(
      row(goalRows({ ...m, anthropicDoor: 'absent' }), 'added latency over direct, /anthropic/v1/messages'),
    ).toMatchObject({ measured: 'not present (404)', met: null });
  });

  it('judges log shards by appends per workerd CPU-second in one process, the most shards against one', () => {
    type Shards = NonNullable<Measured['logShards']>;
    const run = (
      layout: Shards['runs'][number]['layout'],
      shards: number,
      perSecond: number,
      perCpu: number,
    ) => ({
      layout,
      shards,
      processes: layout === 'one process' ? 1 : shards,
      appends: 38_400,
      seconds: 38_400 / perSecond,
      perSecond,
      speedup: null,
      bound: layout === 'one process' ? 1 : Math.min(shards, 2),
      workerdCpuUsPerAppend: 1e6 / perCpu,
      appendsPerCpuSecond: perCpu,
      meanBatch: 400,
      coresBusy: { workerd: 1, loadGenerator: 0.1, other: 0.3 },
    });
    const shards: Shards = {
      name: 'log-shards',
      cores: 2,
      loadAverage: { before: [0.5, 0.5, 0.5], after: [1, 1, 1] },
      clients: 16,
      perRequest: 100,
      passes: 2,
      appendsPerRun: 38_400,
      runs: [
        run('one process', 1, 8000, 9000),
        run('one process', 8, 9000, 9500),
        run('a process each', 1, 8000, 9000),
        { ...run('a process each', 8, 12_000, 8550), speedup: 1.5 },
      ],
      metrics: [],
    };
    expect(row(goalRows({ ...measured(), logShards: shards }), 'log appends by shard count')).toEqual({
      goal: 'log appends by shard count, CPU per append, 8 shards vs 1 in one workerd process',
      target: 'appends per workerd CPU-second ≥ 0.9× one shard’s',
      measured:
        '9500 vs 9000 per CPU-second; a process each: 12000/s vs 8000/s (1.5×, at most 2× on 2 cores), 0.95× per CPU-second',
      ratio: '1.06× per CPU-second',
      met: true,
    });
    expect(row(goalRows(measured()), 'log appends by shard count')).toMatchObject({
      measured: 'not run',
      met: null,
    });
  });
});
