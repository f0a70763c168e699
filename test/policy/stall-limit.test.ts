import { describe, expect, it } from 'vitest';
import type { Speed } from '../../src/policy/plan-types';
import {
  expectedSilenceMs,
  minStallMs,
  reserveForMs,
  stallFactor,
  stallLimitMs,
} from '../../src/policy/stall-limit';

const speed: Speed = { ttftMsP50: 400, ttftMsP90: 900, outputTokensPerSec: 100, source: 'catalog' };
const needs = { tools: false, json: false, privacy: 'public' as const, inputTokens: 100 };

describe('expectedSilenceMs', () => {
  it('is the p90 first token when streaming', () => {
    expect(expectedSilenceMs(speed, 4096, true)).toBe(900);
  });

  it('includes writing all of max_tokens for a JSON answer, which arrives in one piece', () => {
    expect(expectedSilenceMs(speed, 1000, false)).toBe(900 + 10_000);
  });
});

describe('reserveForMs', () => {
  it('is the next model’s p90 first token plus the wanted output (default 256, capped by max_tokens)', () => {
    expect(reserveForMs(speed, needs, 4096)).toBe(900 + 2560);
    expect(reserveForMs(speed, { ...needs, maxOutputTokens: 100 }, 4096)).toBe(900 + 1000);
    expect(reserveForMs(speed, needs, 50)).toBe(900 + 500);
  });
});

describe('stallLimitMs: min(time left, max(floor, factor × expected), room leaving the next model its reserve)', () => {
  it.each([
    // A fast model, plenty of time, nothing after it: the floor.
    { expectedMs: 100, timeLeftMs: Number.POSITIVE_INFINITY, reserveMs: 0, limit: minStallMs },
    // A slow model: a multiple of what it is expected to need.
    { expectedMs: 2000, timeLeftMs: Number.POSITIVE_INFINITY, reserveMs: 0, limit: stallFactor * 2000 },
    // Never more than the time left.
    { expectedMs: 2000, timeLeftMs: 3000, reserveMs: 0, limit: 3000 },
    { expectedMs: 100, timeLeftMs: 700, reserveMs: 0, limit: 700 },
    // A fallback planned: leave it its reserve, so failover still has time.
    { expectedMs: 500, timeLeftMs: 2000, reserveMs: 800, limit: 1200 },
    { expectedMs: 151, timeLeftMs: 2500, reserveMs: 151, limit: minStallMs },
    // …but never cut this model below its own expected silence for the sake of the next one.
    { expectedMs: 900, timeLeftMs: 1500, reserveMs: 1000, limit: 900 },
    // At least 1 ms, whatever is left.
    { expectedMs: 100, timeLeftMs: 0, reserveMs: 0, limit: 1 },
  ])('expected $expectedMs, left $timeLeftMs, reserve $reserveMs → $limit', ({ limit, ...input }) => {
    expect(stallLimitMs(input)).toBe(limit);
  });

  it('is a whole number of milliseconds', () => {
    expect(Number.isInteger(stallLimitMs({ expectedMs: 1234.5, timeLeftMs: 9999.9, reserveMs: 0 }))).toBe(
      true,
    );
  });
});
