import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { adminUsageBodySchema } from '../../src/contracts/admin-usage';
import { adminToken, call, createKey, reason } from '../helpers/api';

const admin = { Authorization: `Bearer ${adminToken}` };

/** Usage records in January 2020, a month no other test writes in: [tenant, model, day, cost, outcome]. */
const records: [string, string, string, number, string][] = [
  ['au-a', 'sim/fast', '2020-01-01', 0.5, 'ok'],
  ['au-a', 'sim/fast', '2020-01-02', 0.25, 'ok'],
  ['au-a', 'sim/deep', '2020-01-02', 1, 'model.server'],
  ['au-b', 'sim/fast', '2020-01-02', 2, 'ok'],
  ['au-c', 'sim/deep', '2020-01-03', 4, 'ok'],
];

beforeAll(async () => {
  for (const [tenant, model, day, cost, outcome] of records) {
    await env.DB.prepare(
      `INSERT INTO usage_records (tenant, key_id, route, model, input_tokens, output_tokens, latency_ms, outcome,
        fallbacks, stream, cost_usd, created_at, day) VALUES (?, NULL, 'reason', ?, 10, 5, 20, ?, 0, 0, ?, ?, ?)`,
    )
      .bind(tenant, model, outcome, cost, Date.parse(`${day}T12:00:00Z`), day)
      .run();
  }
});

async function usageOf(query: string) {
  const res = await call(`/v1/admin/usage?${query}`, { headers: admin });
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return adminUsageBodySchema.parse(JSON.parse(text));
}

const january = 'from=2020-01-01&to=2020-01-31';

describe('GET /v1/admin/usage', () => {
  it('aggregates every tenant’s usage by tenant, with totals', async () => {
    const body = await usageOf(january);
    expect(body).toMatchObject({ tenant: null, from: '2020-01-01', to: '2020-01-31', groupBy: ['tenant'] });
    expect(body.rows.map((r) => [r.tenant, r.requests, r.errors, r.costUsd])).toEqual([
      ['au-a', 3, 1, 1.75],
      ['au-b', 1, 0, 2],
      ['au-c', 1, 0, 4],
    ]);
    expect(body.totals).toEqual({ requests: 5, errors: 1, inputTokens: 50, outputTokens: 25, costUsd: 7.75 });
    expect(body.next).toBeNull();
  });

  it('groups by model and day, and narrows to one tenant', async () => {
    const byModel = await usageOf(`${january}&groupBy=model`);
    expect(byModel.rows.map((r) => [r.model, r.requests, r.costUsd])).toEqual([
      ['sim/deep', 2, 5],
      ['sim/fast', 3, 2.75],
    ]);
    const one = await usageOf(`${january}&tenant=au-a&groupBy=day,model`);
    expect(one.tenant).toBe('au-a');
    expect(one.rows.map((r) => [r.day, r.model, r.costUsd])).toEqual([
      ['2020-01-01', 'sim/fast', 0.5],
      ['2020-01-02', 'sim/deep', 1],
      ['2020-01-02', 'sim/fast', 0.25],
    ]);
    expect(one.totals.costUsd).toBe(1.75);
  });

  it('reads today’s requests of a tenant that just called', async () => {
    const { key } = await createKey('au-today');
    await reason(key, { task: 't', instructions: 'Say hi.' });
    const today = new Date().toISOString().slice(0, 10);
    let body = await usageOf(`from=${today}&tenant=au-today`);
    for (let i = 0; i < 50 && body.totals.requests === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      body = await usageOf(`from=${today}&tenant=au-today`);
    }
    expect(body.rows).toEqual([expect.objectContaining({ tenant: 'au-today', requests: 1, errors: 0 })]);
  });

  it('pages through the groups by limit and cursor, each row once, totals over the whole range', async () => {
    const rows: string[] = [];
    let cursor: string | null = '';
    let pages = 0;
    while (cursor !== null) {
      const body = await usageOf(
        `${january}&groupBy=tenant,model&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(body.totals.requests).toBe(5);
      rows.push(...body.rows.map((r) => `${r.tenant} ${r.model}`));
      cursor = body.next;
      pages++;
    }
    expect(pages).toBe(2);
    expect(rows).toEqual(['au-a sim/deep', 'au-a sim/fast', 'au-b sim/fast', 'au-c sim/deep']);
  });

  it.each([
    ['`from` after `to`', 'from=2020-02-01&to=2020-01-01', '/from'],
    ['a group it does not know', 'groupBy=key', '/groupBy/0'],
    ['a limit over 10 000', 'limit=10001', '/limit'],
    [
      'a cursor of another grouping',
      `groupBy=tenant,model&cursor=${btoa('["au-a"]').replace(/=+$/, '')}`,
      '/cursor',
    ],
    ['a bound that is not a day', 'from=last-week', '/from'],
  ])('answers %s with a 400 naming it', async (_, query, path) => {
    const res = await call(`/v1/admin/usage?${query}`, { headers: admin });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; details: { issues: { path: string }[] } } };
    expect([body.error.code, body.error.details.issues[0]?.path]).toEqual(['request.invalid', path]);
  });
});
