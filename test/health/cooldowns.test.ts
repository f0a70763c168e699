import { describe, expect, it } from 'vitest';
import { applyObservation, circuitOf, cooldownMs, summarize } from '../../src/health/apply-observation';
import { healthViewOf } from '../../src/health/health-client';
import type { HealthRecord } from '../../src/health/health-types';
import { cooldownsOf } from '../../src/health/model-health';

const failure = { provider: 'p', model: 'm', ok: false, errorKind: 'server' as const };

function opened(at: number): HealthRecord {
  let record: HealthRecord | undefined;
  for (let i = 0; i < 3; i++) record = applyObservation(record, failure, at);
  return record as HealthRecord;
}

describe('circuit cooldowns', () => {
  it('come from CIRCUIT_COOLDOWN_MS and PROVIDER_CIRCUIT_COOLDOWN_MS, else the defaults', () => {
    expect(cooldownsOf({})).toEqual(cooldownMs);
    expect(cooldownsOf({ CIRCUIT_COOLDOWN_MS: '', PROVIDER_CIRCUIT_COOLDOWN_MS: '' })).toEqual(cooldownMs);
    expect(cooldownsOf({ CIRCUIT_COOLDOWN_MS: '4000', PROVIDER_CIRCUIT_COOLDOWN_MS: '9000' })).toEqual({
      model: 4000,
      provider: 9000,
    });
    expect(cooldownsOf({ CIRCUIT_COOLDOWN_MS: '-1', PROVIDER_CIRCUIT_COOLDOWN_MS: 'soon' })).toEqual(
      cooldownMs,
    );
  });

  it('decide when an open circuit half-opens', () => {
    const record = opened(1000);
    const short = { model: 4000, provider: 9000 };
    expect(circuitOf(record, 4999, 'model', short).circuit).toBe('open');
    expect(circuitOf(record, 5000, 'model', short).circuit).toBe('half_open');
    expect(circuitOf(record, 5000, 'model').circuit).toBe('open');
  });
});

describe('a cached snapshot', () => {
  it('lets an open circuit half-open at its retryAt, without waiting for a fresh copy', () => {
    const record = opened(1000);
    const snapshot = {
      at: 1000,
      models: { 'p/m': summarize(record, 1000, 'model', { model: 4000, provider: 9000 }) },
    };
    expect(healthViewOf(snapshot).circuit('p', 'm')).toBe('open');
    expect(healthViewOf(snapshot, 4999).circuit('p', 'm')).toBe('open');
    expect(healthViewOf(snapshot, 5000).circuit('p', 'm')).toBe('half_open');
    expect(healthViewOf(snapshot, 5000).circuit('p', 'other')).toBe('closed');
  });
});
