import { describe, expect, it } from 'vitest';
import { sumRounds } from '../../../bench/lib/load.js';

type Run = Parameters<typeof sumRounds>[0][number];

const run = (requests: number, ok: number, durationS: number, p99: number, max: number, mean = 10): Run => ({
  requests,
  rps: ok / durationS,
  ok,
  non2xx: requests - ok,
  errors: 0,
  timeouts: 0,
  durationS,
  offeredRate: null,
  connections: 16,
  latencyMs: { count: requests, mean, p50: p99 / 4, p90: p99 / 2, p99, max, percentiles: {} },
});

describe('sumRounds', () => {
  it("answers every round's answers over every round's time, not the mean of the rounds' rates", () => {
    // 1,000 answers in 1 s and 1,000 in 4 s: 400/s over the 5 s, where a mean of rates would say 625.
    const result = sumRounds([run(1000, 1000, 1, 20, 50), run(1000, 1000, 4, 40, 90)]);
    expect(result.rps).toBe(400);
    expect(result.requests).toBe(2000);
    expect(result.durationS).toBe(5);
    expect(result.rounds).toEqual([1000, 250]);
    expect(result.latencyMs.max).toBe(90);
  });

  it('counts failed answers out of the rate and into non2xx, and takes the median round for percentiles', () => {
    const result = sumRounds([run(100, 90, 1, 30, 40), run(100, 100, 1, 10, 20), run(100, 80, 1, 90, 95)]);
    expect(result.rps).toBe(90);
    expect(result.non2xx).toBe(30);
    expect(result.latencyMs.p99).toBe(30);
    expect(result.latencyMs.p50).toBe(7.5);
  });

  it('weights the mean latency by requests', () => {
    const result = sumRounds([run(300, 300, 1, 10, 10, 2), run(100, 100, 1, 10, 10, 10)]);
    expect(result.latencyMs.mean).toBe(4);
  });

  it('refuses no runs at all', () => {
    expect(() => sumRounds([])).toThrow(/at least one run/);
  });
});

describe('sumRounds percentiles', () => {
  it('rounds the median of two rounds to the microsecond', () => {
    const result = sumRounds([run(10, 10, 1, 60.881, 70), run(10, 10, 1, 60.8915, 70)]);
    expect(result.latencyMs.p99).toBe(60.886);
  });
});
