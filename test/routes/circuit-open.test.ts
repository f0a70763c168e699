import { afterEach, describe, expect, it } from 'vitest';
import { resetHealthCache } from '../../src/health/health-client';
import { createKey } from '../helpers/api';
import { catalogOf, simModel } from '../helpers/catalog-fixtures';
import { seedOpenCircuit } from '../helpers/seed-health';
import { callWithCatalog, reasonWithCatalog } from '../helpers/with-catalog';

// A model kept out only by an open circuit (its provider failing right now) is a temporary refusal:
// 503 with Retry-After, which every client retries, never 422's "no model could ever serve this".

const catalog = catalogOf([simModel('flaky-now')]);

const openCircuit = () => seedOpenCircuit('flaky-now', Date.now());

afterEach(() => resetHealthCache());

describe('a request whose only model has an open circuit', () => {
  it('answers 503 policy.models_unavailable, retryable, with Retry-After until the probe', async () => {
    const { key } = await createKey('circuit-open', ['reason']);
    await openCircuit();
    const { res } = await reasonWithCatalog(catalog, key, { task: 'summarize', instructions: 'Summarize.' });
    expect(res.status).toBe(503);
    const retryAfter = Number(res.headers.get('Retry-After'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    const body = (await res.json()) as {
      error: {
        code: string;
        retryable: boolean;
        details: { retryAfterSeconds: number; excluded: { reason: string }[] };
      };
    };
    expect(body.error).toMatchObject({ code: 'policy.models_unavailable', retryable: true });
    expect(body.error.details.retryAfterSeconds).toBe(retryAfter);
    expect(body.error.details.excluded.map((e) => e.reason)).toEqual(['circuit_open']);
  });

  it('is a retryable 503 on the OpenAI door too, without x-should-retry: false', async () => {
    const { key } = await createKey('circuit-open-door', ['reason']);
    await openCircuit();
    const { res } = await callWithCatalog(catalog, '/openai/v1/chat/completions', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${key}` },
      body: JSON.stringify({ model: 'sim/flaky-now', messages: [{ role: 'user', content: 'Hi' }] }),
    });
    expect(res.status).toBe(503);
    expect(Number(res.headers.get('Retry-After'))).toBeGreaterThanOrEqual(1);
    expect(res.headers.get('x-should-retry')).not.toBe('false');
    const body = (await res.json()) as { error: { code: string } };
    expect(body.error.code).toBe('policy.models_unavailable');
  });

  it('still answers 422 when a lasting check excludes the model, whatever its circuit', async () => {
    const { key } = await createKey('circuit-open-region', ['reason']);
    await openCircuit();
    const { res } = await reasonWithCatalog(catalog, key, {
      task: 'summarize',
      instructions: 'Summarize.',
      modelPolicy: { regions: ['ap'] },
    });
    expect(res.status).toBe(422);
  });
});
