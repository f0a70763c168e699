import type { ModelErrorKind } from '../model/model-error';
import { settings } from '../settings';
import type { HealthRecord, HealthSummary, Observation } from './health-types';

/** Weight of the newest observation in the moving estimates. */
const alpha = 0.2;
/** Consecutive failures that open a model's circuit. */
export const failuresToOpen = 3;
/** How long an open circuit stays shut before one probe is let through, unless the operator sets it. */
export const cooldownMs: Cooldowns = {
  model: settings.CIRCUIT_COOLDOWN_MS.default,
  provider: settings.PROVIDER_CIRCUIT_COOLDOWN_MS.default,
};

/** How long an open circuit stays shut, per scope (an operator may shorten them: model-health.ts). */
export interface Cooldowns {
  model: number;
  provider: number;
}
/** A probe that never reported back frees the slot after this long. */
export const probeTimeoutMs = 60_000;
/** Observed latency replaces the catalog's after this many samples. */
export const minSamplesForEstimates = 5;

/** The request's own fault says nothing about the model's health. */
const notTheModelsFault = new Set<ModelErrorKind>(['invalid_request', 'context_overflow', 'content_filter']);

export function emptyRecord(now: number): HealthRecord {
  return { samples: 0, errorRate: 0, consecutiveFailures: 0, updatedAt: now };
}

/** The record after one observation: moving estimates, error rate, and the circuit's transitions. Pure. */
export function applyObservation(
  previous: HealthRecord | undefined,
  observation: Observation,
  now: number,
  scope: 'model' | 'provider' = 'model',
): HealthRecord {
  const record: HealthRecord = { ...(previous ?? emptyRecord(now)), updatedAt: now };
  if (!observation.ok && observation.errorKind && notTheModelsFault.has(observation.errorKind)) return record;
  if (scope === 'model') {
    record.errorRate = record.errorRate * (1 - alpha) + (observation.ok ? 0 : alpha);
    if (observation.ttftMs !== undefined) {
      record.samples += 1;
      if (record.ttftMean === undefined || record.ttftVar === undefined) {
        record.ttftMean = observation.ttftMs;
        record.ttftVar = 0;
      } else {
        const delta = observation.ttftMs - record.ttftMean;
        record.ttftMean += alpha * delta;
        record.ttftVar = (1 - alpha) * (record.ttftVar + alpha * delta * delta);
      }
    }
    // A speed measured over no output (an attempt that counted 0 tokens) says nothing: were it kept, a
    // mean of 0 would make every latency estimate of the model infinite. A mean left at 0 by a record
    // written before this guard is replaced by the first real measurement.
    const tps = observation.outputTokensPerSec;
    if (isSpeed(tps)) {
      record.tpsMean =
        record.tpsMean === undefined || !isSpeed(record.tpsMean)
          ? tps
          : record.tpsMean + alpha * (tps - record.tpsMean);
    }
  }
  if (observation.ok) {
    record.consecutiveFailures = 0;
    record.openedAt = undefined;
    record.probeAt = undefined;
    return record;
  }
  record.consecutiveFailures += 1;
  record.lastErrorKind = observation.errorKind;
  const wasProbing = record.probeAt !== undefined;
  if (scope === 'provider' || wasProbing || record.consecutiveFailures >= failuresToOpen) {
    record.openedAt = now;
    record.probeAt = undefined;
  }
  return record;
}

/** Where the circuit stands at `now`. Pure. */
export function circuitOf(
  record: HealthRecord,
  now: number,
  scope: 'model' | 'provider',
  cooldowns: Cooldowns = cooldownMs,
): Pick<HealthSummary, 'circuit' | 'retryAt'> {
  if (record.openedAt === undefined) return { circuit: 'closed' };
  const retryAt = record.openedAt + cooldowns[scope];
  if (now < retryAt) return { circuit: 'open', retryAt };
  if (record.probeAt !== undefined && now - record.probeAt < probeTimeoutMs)
    return { circuit: 'open', retryAt };
  return { circuit: 'half_open', retryAt };
}

/** Hands out the single probe of a half-open circuit; false when the circuit is not half-open. Pure. */
export function claimProbe(
  record: HealthRecord | undefined,
  now: number,
  scope: 'model' | 'provider',
  cooldowns: Cooldowns = cooldownMs,
): { granted: boolean; record?: HealthRecord } {
  if (!record || circuitOf(record, now, scope, cooldowns).circuit !== 'half_open') return { granted: false };
  return { granted: true, record: { ...record, probeAt: now, updatedAt: now } };
}

/** What a reader sees: the circuit, and latency estimates once there are enough samples. Pure. */
export function summarize(
  record: HealthRecord,
  now: number,
  scope: 'model' | 'provider',
  cooldowns: Cooldowns = cooldownMs,
): HealthSummary {
  const summary: HealthSummary = {
    ...circuitOf(record, now, scope, cooldowns),
    samples: record.samples,
    errorRate: Math.round(record.errorRate * 1000) / 1000,
    lastErrorKind: record.lastErrorKind,
  };
  if (record.samples >= minSamplesForEstimates && record.ttftMean !== undefined) {
    const spread = Math.sqrt(record.ttftVar ?? 0);
    summary.ttftMsP50 = Math.round(record.ttftMean);
    summary.ttftMsP90 = Math.round(record.ttftMean + 1.2816 * spread);
  }
  if (isSpeed(record.tpsMean)) summary.outputTokensPerSec = roundSpeed(record.tpsMean);
  return summary;
}

/** A usable output speed: a positive, finite number of tokens a second. */
export function isSpeed(tokensPerSec: number | undefined): tokensPerSec is number {
  return tokensPerSec !== undefined && Number.isFinite(tokensPerSec) && tokensPerSec > 0;
}

/** Whole tokens a second, but a model slower than one is not rounded down to a stop. */
function roundSpeed(tokensPerSec: number): number {
  return tokensPerSec >= 1 ? Math.round(tokensPerSec) : Math.max(0.01, Math.round(tokensPerSec * 100) / 100);
}
