import { describe, expect, it } from 'vitest';
import type { Speed } from '../../src/policy/plan-types';
import {
  expectedSilenceMs,
  idleLimitOf,
  minStallMs,
  reserveForMs,
  stallFactor,
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

describe('idleLimitOf: with a fallback, min(time left, max(floor, factor × expected), room leaving it its reserve)', () => {
  it.each([
    // A fallback planned, plenty of time: the floor for a fast model, a multiple of what a slow one needs.
    {
      expectedMs: 100,
      timeLeftMs: Number.POSITIVE_INFINITY,
      reserveMs: 50,
      limit: minStallMs,
      bound: 'stall',
    },
    {
      expectedMs: 2000,
      timeLeftMs: Number.POSITIVE_INFINITY,
      reserveMs: 50,
      limit: stallFactor * 2000,
      bound: 'stall',
    },
    // Leave the fallback its reserve, so failover still has time.
    { expectedMs: 500, timeLeftMs: 2000, reserveMs: 800, limit: 1200, bound: 'fallback' },
    { expectedMs: 151, timeLeftMs: 2500, reserveMs: 151, limit: minStallMs, bound: 'stall' },
    // …but never cut this model below its own expected silence for the sake of the next one.
    { expectedMs: 900, timeLeftMs: 1500, reserveMs: 1000, limit: 900, bound: 'fallback' },
    // Never more than the time left.
    { expectedMs: 4000, timeLeftMs: 3000, reserveMs: 10, limit: 3000, bound: 'deadline' },
    // Nowhere else to go: no stall limit, only the caller's deadline, if any.
    { expectedMs: 100, timeLeftMs: Number.POSITIVE_INFINITY, reserveMs: 0, limit: undefined, bound: 'none' },
    { expectedMs: 2000, timeLeftMs: 3000, reserveMs: 0, limit: 3000, bound: 'deadline' },
    { expectedMs: 100, timeLeftMs: 700, reserveMs: 0, limit: 700, bound: 'deadline' },
    // At least 1 ms, whatever is left.
    { expectedMs: 100, timeLeftMs: 0, reserveMs: 0, limit: 1, bound: 'deadline' },
  ])(
    'expected $expectedMs, left $timeLeftMs, reserve $reserveMs → $limit ($bound)',
    ({ limit, bound, ...input }) => {
      expect(idleLimitOf(input)).toEqual({ ms: limit, bound });
    },
  );

  it('is a whole number of milliseconds', () => {
    expect(Number.isInteger(idleLimitOf({ expectedMs: 1234.5, timeLeftMs: 9999.9, reserveMs: 5 }).ms)).toBe(
      true,
    );
  });
});
