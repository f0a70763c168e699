import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { tenantsPageSchema } from '../../src/contracts/admin-lists';
import { adminToken, call, createKey, reason } from '../helpers/api';

const admin = { Authorization: `Bearer ${adminToken}` };

async function tenantsOf(query = '') {
  const res = await call(`/v1/admin/tenants${query}`, { headers: admin });
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return tenantsPageSchema.parse(JSON.parse(text));
}

async function allTenants() {
  return (await tenantsOf('?limit=1000')).tenants;
}

function setCap(tenant: string, monthlyCapUsd: number | null) {
  return call(`/v1/admin/tenants/${tenant}/budget`, {
    method: 'PUT',
    headers: { ...admin, 'Content-Type': 'application/json' },
    body: JSON.stringify({ monthlyCapUsd }),
  });
}

describe('GET /v1/admin/tenants', () => {
  it('lists each tenant once with its active and revoked keys', async () => {
    await createKey('tl-keys');
    const revoked = await createKey('tl-keys');
    await call(`/v1/admin/keys/${revoked.id}`, { method: 'DELETE', headers: admin });
    const page = await tenantsOf();
    expect(page.month).toBe(new Date().toISOString().slice(0, 7));
    expect(page.tenants.filter((t) => t.tenant === 'tl-keys')).toEqual([
      { tenant: 'tl-keys', activeKeys: 1, revokedKeys: 1, capUsd: null, spentUsd: 0, remainingUsd: null },
    ]);
  });

  it('shows a cap set through the budget endpoint, and no cap once it is removed', async () => {
    await createKey('tl-cap');
    expect((await setCap('tl-cap', 12.5)).status).toBe(200);
    expect((await allTenants()).find((t) => t.tenant === 'tl-cap')).toMatchObject({
      capUsd: 12.5,
      remainingUsd: 12.5,
    });
    expect((await setCap('tl-cap', null)).status).toBe(200);
    expect((await allTenants()).find((t) => t.tenant === 'tl-cap')).toMatchObject({
      capUsd: null,
      remainingUsd: null,
    });
  });

  it('lists a tenant that has a cap and no key yet', async () => {
    await setCap('tl-cap-only', 3);
    expect((await allTenants()).find((t) => t.tenant === 'tl-cap-only')).toEqual({
      tenant: 'tl-cap-only',
      activeKeys: 0,
      revokedKeys: 0,
      capUsd: 3,
      spentUsd: 0,
      remainingUsd: 3,
    });
  });

  it('counts this month’s spend from the usage records against the cap', async () => {
    const { key } = await createKey('tl-spend');
    await setCap('tl-spend', 1);
    expect((await reason(key, { task: 't', instructions: 'Say hi.' })).status).toBe(200);
    let listed = (await allTenants()).find((t) => t.tenant === 'tl-spend');
    for (let i = 0; i < 50 && listed?.spentUsd === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      listed = (await allTenants()).find((t) => t.tenant === 'tl-spend');
    }
    expect(listed?.spentUsd).toBeGreaterThan(0);
    expect(listed?.remainingUsd).toBeCloseTo(1 - (listed?.spentUsd ?? 0), 10);
    // A record of last month is not this month's spend.
    await env.DB.prepare(
      "INSERT INTO usage_records (tenant, key_id, route, model, input_tokens, output_tokens, latency_ms, outcome, fallbacks, stream, cost_usd, created_at, day) VALUES ('tl-spend', NULL, 'reason', 'sim/fast', 1, 1, 1, 'ok', 0, 0, 100, 0, '1970-01-01')",
    ).run();
    const again = (await allTenants()).find((t) => t.tenant === 'tl-spend');
    expect(again?.spentUsd).toBe(listed?.spentUsd);
  });

  it('pages through the tenants by name', async () => {
    for (const name of ['tl-page-c', 'tl-page-a', 'tl-page-b']) await createKey(name);
    const everyone = (await allTenants()).map((t) => t.tenant);
    expect(everyone).toEqual([...everyone].sort());
    const seen: string[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const page = await tenantsOf(`?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.tenants.map((t) => t.tenant));
      cursor = page.next;
    }
    expect(seen).toEqual(everyone);
  });

  it('answers a cursor of another list with a 400 naming it', async () => {
    await createKey('tl-cursor');
    await createKey('tl-cursor');
    const keys = await call('/v1/admin/keys?tenant=tl-cursor&limit=1', { headers: admin });
    const { next } = (await keys.json()) as { next: string | null };
    expect(next).not.toBeNull();
    const res = await call(`/v1/admin/tenants?cursor=${next}`, { headers: admin });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; details: { issues: { path: string }[] } } };
    expect(body.error.code).toBe('request.invalid');
    expect(body.error.details.issues[0]?.path).toBe('/cursor');
  });
});
