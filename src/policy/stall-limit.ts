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
 * The idle limit of one attempt (`CallOptions.idleTimeoutMs`): how long it may go without a byte
 * before headers, and between chunks of its body. It is
 *
 *   min(time left, max(minStallMs, stallFactor × expected silence), room that leaves the next model its reserve)
 *
 * where the room for the next model is never cut below this model's own expected silence. So a silent
 * provider cannot eat the whole budget, a slow but working one is not cut early, and failover still
 * has time when a fallback is planned. Pure.
 */
export function stallLimitMs(input: StallInput): number {
  const { expectedMs, timeLeftMs, reserveMs } = input;
  const stall = Math.max(minStallMs, stallFactor * expectedMs);
  const room = reserveMs > 0 ? Math.max(expectedMs, timeLeftMs - reserveMs) : timeLeftMs;
  return Math.max(1, Math.floor(Math.min(timeLeftMs, stall, room)));
}
