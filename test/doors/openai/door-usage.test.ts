import { describe, expect, it } from 'vitest';
import { createKey } from '../../helpers/api';
import { catalogOf, simModel } from '../../helpers/catalog-fixtures';
import { usageRowsOf } from '../../helpers/usage-rows';
import { doorCall } from './door-calls';

// The door is served by the same pipeline as POST /v1/reason, so its usage records are written the
// same way — under the door's own route, for answers, streams and failures alike.

interface UsageRow extends Record<string, unknown> {
  route: string;
  stream: number;
  outcome: string;
}

/** The routes, stream flags and outcomes of a tenant's first `count` usage rows. */
async function routesOf(tenant: string, count: number) {
  const rows = await usageRowsOf<UsageRow>(tenant, ['route', 'stream', 'outcome'], count);
  return rows.map((row) => [row.route, row.stream, row.outcome]);
}

const hello = { model: 'auto', messages: [{ role: 'user', content: 'Say hello.' }] };

describe('the door’s usage records', () => {
  it('name the door’s route for a chat answer, a chat stream and a Responses answer', async () => {
    const { key, tenant } = await createKey('door-usage');
    const catalog = catalogOf([simModel('u-ok')]);
    for (const [path, body] of [
      ['/chat/completions', hello],
      ['/chat/completions', { ...hello, stream: true }],
      ['/responses', { model: 'auto', input: 'Say hello.' }],
    ] as const) {
      const { res, settled } = await doorCall(catalog, key, path, body);
      expect(res.status).toBe(200);
      await res.text();
      await settled();
    }
    expect(await routesOf(tenant, 3)).toEqual([
      ['POST /openai/v1/chat/completions', 0, 'ok'],
      ['POST /openai/v1/chat/completions', 1, 'ok'],
      ['POST /openai/v1/responses', 0, 'ok'],
    ]);
  });

  it('name the door’s route for a request that failed', async () => {
    const { key, tenant } = await createKey('door-usage-failed');
    const catalog = catalogOf([
      // A provider of its own: an auth failure opens its provider's circuit, which must not hold out the
      // `sim` models of the files that share this runtime after this one.
      simModel('u-auth', { provider: 'sim-auth', simulate: { failWith: 'auth' } }),
    ]);
    const { res, settled } = await doorCall(catalog, key, '/chat/completions', hello);
    expect(res.status).toBe(502);
    await res.text();
    await settled();
    expect(await routesOf(tenant, 1)).toEqual([['POST /openai/v1/chat/completions', 0, 'model.auth']]);
  });
});
