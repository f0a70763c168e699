import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import {
  applyObservation,
  circuitOf,
  claimProbe,
  cooldownMs,
  summarize,
} from '../../src/health/apply-observation';
import type { ModelHealth } from '../../src/health/model-health';

const fail = { provider: 'p', model: 'm', ok: false, errorKind: 'server' as const };
const ok = { provider: 'p', model: 'm', ok: true, ttftMs: 100 };

describe('the circuit breaker (pure)', () => {
  it('opens after three consecutive failures, lets one probe through after the cooldown, closes on success', () => {
    let record = applyObservation(undefined, fail, 0);
    record = applyObservation(record, fail, 1);
    expect(circuitOf(record, 2, 'model').circuit).toBe('closed');
    record = applyObservation(record, fail, 2);
    expect(circuitOf(record, 3, 'model').circuit).toBe('open');
    const later = 2 + cooldownMs.model;
    expect(circuitOf(record, later, 'model').circuit).toBe('half_open');
    const first = claimProbe(record, later, 'model');
    expect(first.granted).toBe(true);
    record = first.record ?? record;
    expect(claimProbe(record, later + 1, 'model').granted).toBe(false);
    record = applyObservation(record, ok, later + 10);
    expect(circuitOf(record, later + 11, 'model').circuit).toBe('closed');
  });

  it('re-opens at once when the probe fails', () => {
    let record = applyObservation(applyObservation(applyObservation(undefined, fail, 0), fail, 0), fail, 0);
    record = claimProbe(record, cooldownMs.model, 'model').record ?? record;
    record = applyObservation(record, fail, cooldownMs.model + 5);
    expect(circuitOf(record, cooldownMs.model + 6, 'model')).toMatchObject({ circuit: 'open' });
  });

  it('ignores failures that are the request’s fault', () => {
    const record = applyObservation(undefined, { ...fail, errorKind: 'invalid_request' }, 0);
    expect(record.consecutiveFailures).toBe(0);
  });

  it('estimates time to first token once there are five samples', () => {
    let record = applyObservation(undefined, ok, 0);
    expect(summarize(record, 0, 'model').ttftMsP50).toBeUndefined();
    for (const ttftMs of [200, 100, 300, 100]) record = applyObservation(record, { ...ok, ttftMs }, 0);
    const summary = summarize(record, 0, 'model');
    expect(summary.ttftMsP50).toBeGreaterThan(100);
    expect(summary.ttftMsP90).toBeGreaterThan(summary.ttftMsP50 ?? 0);
  });
});

describe('output speed (pure)', () => {
  const fast = { ...ok, outputTokensPerSec: 100 };

  it('takes no speed from an attempt that counted no output, or from a speed that is not a number', () => {
    let record = applyObservation(undefined, fast, 0);
    for (const outputTokensPerSec of [0, -5, Number.NaN, Number.POSITIVE_INFINITY])
      record = applyObservation(record, { ...ok, outputTokensPerSec }, 0);
    expect(record.tpsMean).toBe(100);
    expect(summarize(record, 0, 'model').outputTokensPerSec).toBe(100);
  });

  it('replaces a mean of 0 left by an earlier record with the first real measurement', () => {
    const stale = {
      samples: 5,
      ttftMean: 20,
      ttftVar: 0,
      tpsMean: 0,
      errorRate: 0,
      consecutiveFailures: 0,
      updatedAt: 0,
    };
    expect(summarize(stale, 0, 'model').outputTokensPerSec).toBeUndefined();
    expect(applyObservation(stale, fast, 1).tpsMean).toBe(100);
  });

  it('does not round a slow model’s speed down to 0', () => {
    const record = applyObservation(undefined, { ...ok, outputTokensPerSec: 0.3 }, 0);
    expect(summarize(record, 0, 'model').outputTokensPerSec).toBe(0.3);
  });
});

describe('the ModelHealth Durable Object', () => {
  it('records outcomes in SQLite, and opens a provider’s circuit on an auth failure', async () => {
    const stub = env.MODEL_HEALTH.getByName('health-test');
    await stub.record([
      { provider: 'acme', model: 'x', ok: false, errorKind: 'auth', openProviderCircuit: true },
    ]);
    const snapshot = await stub.snapshot();
    expect(snapshot.models['acme/*']?.circuit).toBe('open');
    expect(snapshot.models['acme/x']?.circuit).toBe('closed');
    await runInDurableObject(stub, (instance: ModelHealth, state) => {
      const rows = state.storage.sql
        .exec<{ key: string }>('SELECT key FROM model_health ORDER BY key')
        .toArray();
      expect(rows.map((r) => r.key)).toEqual(['acme/*', 'acme/x']);
      expect(instance.claimProbe('acme', 'x')).toBe(false);
    });
  });
});
