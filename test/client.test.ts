import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createValveClient } from '../src/client';
import { createKey } from './helpers/api';

describe('the typed client', () => {
  it('sends a Reason request and reads a typed answer', async () => {
    const { key } = await createKey('client-tenant');
    const client = createValveClient({
      baseUrl: 'http://valve.test',
      apiKey: key,
      fetch: (input, init) => exports.default.fetch(new Request(input, init)),
    });
    const res = await client.v1.reason.$post({
      json: { task: 'summarize', instructions: 'Summarize.', modelPolicy: { prefer: 'cost' } },
    });
    expect(res.status).toBe(200);
    if (res.status !== 200) return;
    const body = await res.json();
    expect(body.model.model).toBe('fast');
    expect(body.decision.prefer).toBe('cost');
  });

  it('reads usage with the same client', async () => {
    const { key } = await createKey('client-usage', ['usage:read']);
    const client = createValveClient({
      baseUrl: 'http://valve.test',
      apiKey: key,
      fetch: (input, init) => exports.default.fetch(new Request(input, init)),
    });
    const res = await client.v1.usage.$get({ query: { groupBy: 'model' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ tenant: 'client-usage', rows: [] });
  });
});
