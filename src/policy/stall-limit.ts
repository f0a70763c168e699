import { defaultWantedOutputTokens } from './attempt-limits';
import type { Needs, Speed } from './plan-types';

/** No call is cut for silence sooner than this: a cold start or a queue is not yet a stall. */
export const minStallMs = 1_500;
/** Silence longer than this multiple of what the model is expected to need is a stall. */
export const stallFactor = 3;

/**
 * How long a model is expected to stay silent before its first byte, at its p90 speed. A streamed
 * call sends its first byte with the first token; a JSON call only once the whole answer is written,
 * so it may legitimately be silent for the time its `maxTokens` take. Pure.
 */
export function expectedSilenceMs(speed: Speed, maxTokens: number, stream: boolean): number {
  if (stream) return speed.ttftMsP90;
  return speed.ttftMsP90 + (maxTokens / speed.outputTokensPerSec) * 1000;
}

/** What the next planned attempt needs to be worth starting: its p90 first token plus the wanted output. */
export function reserveForMs(speed: Speed, needs: Needs, maxTokens: number): number {
  const wanted = Math.min(needs.maxOutputTokens ?? defaultWantedOutputTokens, maxTokens);
  return speed.ttftMsP90 + (wanted / speed.outputTokensPerSec) * 1000;
}

export interface StallInput {
  /** expectedSilenceMs of this attempt. */
  expectedMs: number;
  /** Time left before the request's deadline (`Infinity` without `maxLatencyMs`). */
  timeLeftMs: number;
  /** reserveForMs of the next planned model, or 0 when this is the last one. */
  reserveMs: number;
}

/**
 * Which limit ends a silent attempt: the stall limit proper (the model is slower than it can be
 * expected to be: the model's fault), the room the next model needs (a fallback takes over sooner),
 * the caller's own deadline, or nothing at all.
 */
export type IdleBound = 'stall' | 'fallback' | 'deadline' | 'none';

export interface IdleLimit {
  /** The attempt's `CallOptions.idleTimeoutMs`; undefined when no silence is cut short. */
  ms: number | undefined;
  bound: IdleBound;
}

/**
 * The idle limit of one attempt (`CallOptions.idleTimeoutMs`): how long it may go without a byte
 * before headers, and between chunks of its body. With a fallback planned it is
 *
 *   min(time left, max(minStallMs, stallFactor × expected silence), room that leaves the next model its reserve)
 *
 * where the room for the next model is never cut below this model's own expected silence: a silent
 * provider cannot eat the whole budget, a slow but working one is not cut early, and failover still has
 * time. The stall limit only ever moves a request to a fallback sooner; with nowhere else to go the
 * attempt waits as long as the caller allows (its deadline, or none). Pure.
 */
export function idleLimitOf(input: StallInput): IdleLimit {
  const { expectedMs, timeLeftMs, reserveMs } = input;
  const whole = (ms: number) => Math.max(1, Math.floor(ms));
  if (reserveMs <= 0) {
    return Number.isFinite(timeLeftMs)
      ? { ms: whole(timeLeftMs), bound: 'deadline' }
      : { ms: undefined, bound: 'none' };
  }
  const stall = Math.max(minStallMs, stallFactor * expectedMs);
  const room = Math.max(expectedMs, timeLeftMs - reserveMs);
  const ms = Math.min(timeLeftMs, stall, room);
  const bound: IdleBound = ms === stall ? 'stall' : ms === timeLeftMs ? 'deadline' : 'fallback';
  return { ms: whole(ms), bound };
}
