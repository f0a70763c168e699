import { Validator } from '@cfworker/json-schema';
import { describe, expect, it } from 'vitest';
import discoveryJsonSchema from '../../schemas/discovery.schema.json';
import { discoverySchema } from '../../src/contracts/discovery';
import { resetHealthCache } from '../../src/health/health-client';
import { call, createKey } from '../helpers/api';
import { catalogOf, simModel } from '../helpers/catalog-fixtures';
import { callWithCatalog, reasonWithCatalog } from '../helpers/with-catalog';

describe('GET /v1/models', () => {
  it('describes the default catalog: the simulator configured, real providers present but not configured', async () => {
    const { key } = await createKey();
    const res = await call('/v1/models', { headers: { Authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    const json = await res.json();
    expect(new Validator(discoveryJsonSchema as object, '2020-12', false).validate(json).valid).toBe(true);
    const discovery = discoverySchema.parse(json);
    expect(discovery.schemaVersion).toBe('v1');
    const byId = Object.fromEntries(discovery.providers.map((p) => [p.provider, p]));
    expect(byId.sim?.configured).toBe(true);
    expect(byId.sim?.models.map((m) => m.model)).toEqual(['fast', 'balanced', 'deep']);
    expect(byId.openai).toMatchObject({
      configured: false,
      notConfiguredReason: expect.stringMatching(/OPENAI_API_KEY/),
    });
    expect(byId['workers-ai']?.notConfiguredReason).toMatch(/AI binding/);
    expect(byId.anthropic?.models[0]?.capabilities.structuredOutput).toBe('partial');
    expect(byId.gemini?.models[0]?.priceUsdPerMTok).toEqual({ input: 0.3, output: 2.5 });
    // What each model reads, as the catalog says: the planner routes media by the same list.
    const reads = (provider: string) =>
      byId[provider]?.models.map((m) => [
        m.model,
        m.capabilities.inputModalities,
        m.capabilities.multimodalInput,
      ]);
    expect(reads('sim')).toEqual([
      ['fast', ['text'], 'none'],
      ['balanced', ['text', 'image', 'pdf'], 'full'],
      ['deep', ['text', 'image', 'audio', 'pdf'], 'full'],
    ]);
    expect(reads('gemini')).toEqual([['gemini-2.5-flash', ['text', 'image', 'audio', 'pdf'], 'full']]);
  });

  it('needs a valid key', async () => {
    expect((await call('/v1/models')).status).toBe(401);
  });

  it('shows live health: an open circuit after repeated failures, which then keeps the model out of plans', async () => {
    const { key } = await createKey();
    const catalog = catalogOf([
      simModel('failing-h', { quality: 90, simulate: { failWith: 'server' } }),
      simModel('fine-h', { quality: 50 }),
    ]);
    for (let i = 0; i < 3; i++) {
      const { res, settled } = await reasonWithCatalog(catalog, key, { task: 't', instructions: 'Say hi.' });
      expect(res.status).toBe(200);
      await settled();
    }
    resetHealthCache();
    const { res } = await callWithCatalog(catalog, '/v1/models', {
      headers: { Authorization: `Bearer ${key}` },
    });
    const discovery = discoverySchema.parse(await res.json());
    const failing = discovery.providers[0]?.models.find((m) => m.model === 'failing-h');
    expect(failing?.health).toMatchObject({ circuit: 'open', lastErrorKind: 'server' });
    const next = await reasonWithCatalog(catalog, key, { task: 't', instructions: 'Say hi.' });
    const body = (await next.res.json()) as { decision: { excluded: { model: string; reason: string }[] } };
    expect(body.decision.excluded).toEqual([
      expect.objectContaining({ model: 'failing-h', reason: 'circuit_open' }),
    ]);
  });
});
