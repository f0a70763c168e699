import { describe, expect, it } from 'vitest';
import { modelStatusListSchema } from '../../src/contracts/admin-models';
import { adminToken, call, createKey } from '../helpers/api';
import { catalogOf, simModel } from '../helpers/catalog-fixtures';
import { callWithCatalog, reasonWithCatalog } from '../helpers/with-catalog';

const admin = { Authorization: `Bearer ${adminToken}` };

describe('GET /v1/admin/models', () => {
  it('lists every model of the default catalog, the real providers without a key saying which secret to set', async () => {
    const res = await call('/v1/admin/models', { headers: admin });
    expect(res.status).toBe(200);
    const list = modelStatusListSchema.parse(await res.json());
    expect(Math.abs(list.at - Date.now())).toBeLessThan(60_000);
    const sim = list.models.filter((m) => m.provider === 'sim');
    expect(sim.map((m) => [m.model, m.configured, m.simulated])).toEqual([
      ['fast', true, true],
      ['balanced', true, true],
      ['deep', true, true],
    ]);
    const openai = list.models.find((m) => m.provider === 'openai');
    expect(openai).toMatchObject({
      configured: false,
      notConfiguredReason: 'provider openai has no key: set the OPENAI_API_KEY secret',
      health: { circuit: 'closed', retryAt: null },
    });
    expect(openai?.priceUsdPerMTok.input).toBeGreaterThan(0);
  });

  it('shows a failing model’s circuit open, with when it will probe, as soon as the failures are recorded', async () => {
    const { key } = await createKey('am-circuit');
    const catalog = catalogOf([
      simModel('failing-am', { quality: 90, simulate: { failWith: 'server' } }),
      simModel('fine-am', { quality: 50 }),
    ]);
    const before = Date.now();
    for (let i = 0; i < 3; i++) {
      const { res, settled } = await reasonWithCatalog(catalog, key, { task: 't', instructions: 'Hi.' });
      expect(res.status).toBe(200);
      await settled();
    }
    const { res } = await callWithCatalog(catalog, '/v1/admin/models', { headers: admin });
    const list = modelStatusListSchema.parse(await res.json());
    const failing = list.models.find((m) => m.model === 'failing-am');
    expect(failing?.health).toMatchObject({
      circuit: 'open',
      circuitScope: 'model',
      lastErrorKind: 'server',
    });
    expect(failing?.health.errorRate).toBeGreaterThan(0);
    expect(failing?.health.retryAt).toBeGreaterThan(before);
    expect(list.models.find((m) => m.model === 'fine-am')?.health.circuit).toBe('closed');
  });
});
