import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { resetHealthCache } from '../../src/health/health-client';
import { createKey } from '../helpers/api';
import { catalogOf, simModel } from '../helpers/catalog-fixtures';
import { seedOpenCircuit } from '../helpers/seed-health';
import { reasonWithCatalog } from '../helpers/with-catalog';

const catalog = catalogOf([simModel('probe-held')]);

describe('a half-open circuit whose single probe another request holds', () => {
  it('answers 503 limit.circuit_probing with Retry-After and nothing spent, not a budget refusal', async () => {
    const { key } = await createKey('probe-wait', ['reason']);
    const stub = env.MODEL_HEALTH.getByName('global');
    // The model failed long ago: its circuit is open past the cooldown, so half-open in this isolate's
    // copy, as it would be for every request of the next few seconds…
    await seedOpenCircuit('probe-held', Date.now() - 3_600_000);
    // …and another request has taken the probe.
    expect(await stub.claimProbe('sim', 'probe-held')).toBe(true);

    const { res } = await reasonWithCatalog(catalog, key, { task: 'summarize', instructions: 'Summarize.' });
    expect(res.status).toBe(503);
    expect(Number(res.headers.get('Retry-After'))).toBeGreaterThanOrEqual(1);
    const body = (await res.json()) as {
      error: {
        code: string;
        retryable: boolean;
        details: { decision: { attempts: { reason?: string; costUsd: number }[] } };
      };
    };
    expect(body.error.code).toBe('limit.circuit_probing');
    expect(body.error.retryable).toBe(true);
    const attempts = body.error.details.decision.attempts;
    expect(attempts.map((a) => a.reason)).toEqual(['circuit_open']);
    expect(attempts.reduce((sum, a) => sum + a.costUsd, 0)).toBe(0);
    resetHealthCache();
  });
});
