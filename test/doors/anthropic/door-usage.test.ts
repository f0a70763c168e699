import { describe, expect, it } from 'vitest';
import { createKey } from '../../helpers/api';
import { catalogOf, simModel } from '../../helpers/catalog-fixtures';
import { usageRowsOf } from '../../helpers/usage-rows';
import { messagesWithCatalog, userMessage } from './anthropic-calls';

// The Anthropic door is served by the same pipeline as POST /v1/reason, so its usage records are
// written the same way, under the door's own route: answers, streams and failures alike. Counting
// tokens calls no model and records no usage.

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

const hello = { model: 'auto', max_tokens: 64, messages: [userMessage('Say hello.')] };

describe('the Anthropic door’s usage records', () => {
  it('name the door’s route for an answer, a stream and a failure, and none for count_tokens', async () => {
    const { key, tenant } = await createKey('anth-usage');
    const ok = catalogOf([simModel('u-ok')]);
    const failing = catalogOf([
      // A provider of its own: an auth failure opens its provider's circuit, which must not hold out the
      // `sim` models of the files that share this runtime after this one.
      simModel('u-auth', { provider: 'sim-auth', simulate: { failWith: 'auth' } }),
    ]);
    for (const [catalog, path, body, status] of [
      [ok, '/messages', hello, 200],
      [ok, '/messages', { ...hello, stream: true }, 200],
      [ok, '/messages/count_tokens', { model: 'auto', messages: hello.messages }, 200],
      [failing, '/messages', hello, 502],
    ] as const) {
      const { res, settled } = await messagesWithCatalog(catalog, key, path, body);
      expect(res.status).toBe(status);
      await res.text();
      await settled();
    }
    expect(await routesOf(tenant, 3)).toEqual([
      ['POST /anthropic/v1/messages', 0, 'ok'],
      ['POST /anthropic/v1/messages', 1, 'ok'],
      ['POST /anthropic/v1/messages', 0, 'model.auth'],
    ]);
  });
});
