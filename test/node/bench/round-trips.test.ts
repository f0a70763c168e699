import { describe, expect, it } from 'vitest';
import { parseStorageTimings, productionEstimateMs } from '../../../bench/lib/round-trips.js';

// The bench counts a request's storage round trips from the Worker's Server-Timing header: one
// `storage` entry per awaited round trip, its desc `<kind>:<what>`.

describe('the bench’s Server-Timing reading', () => {
  it('counts only storage entries, with their kind, and tells "not instrumented" from "none"', () => {
    const trips = parseStorageTimings(
      'total;dur=3.2, storage;desc="do:log";dur=0.4, storage;desc="d1:receipt";dur=1.1,storage;desc=rate-limit',
    );
    expect(trips).toEqual([
      { kind: 'do', what: 'log', durMs: 0.4 },
      { kind: 'd1', what: 'receipt', durMs: 1.1 },
      { kind: 'do', what: 'rate-limit', durMs: null },
    ]);
    expect(parseStorageTimings('total;dur=3.2')).toEqual([]);
    expect(parseStorageTimings(null)).toBeNull();
  });

  it('estimates production latency as CPU plus each round trip at its kind’s stated latency', () => {
    expect(productionEstimateMs(1.5, { 'do:log': 1, 'd1:receipt': 0.5 })).toBe(1.5 + 5 + 0.5 * 10);
    expect(productionEstimateMs(null, { 'do:log': 1 })).toBeNull();
  });
});
