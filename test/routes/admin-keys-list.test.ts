import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { keysPageSchema } from '../../src/contracts/admin-lists';
import { sha256Hex } from '../../src/middleware/secret-hash';
import { adminToken, call, createKey, reason } from '../helpers/api';

const admin = { Authorization: `Bearer ${adminToken}` };

async function listKeys(query = '') {
  const res = await call(`/v1/admin/keys${query}`, { headers: admin });
  return { res, text: await res.text() };
}

async function keysOf(query: string) {
  const { res, text } = await listKeys(query);
  expect(res.status, text).toBe(200);
  return keysPageSchema.parse(JSON.parse(text));
}

async function errorOf(res: Response) {
  return ((await res.json()) as { error: { code: string; details: { issues: { path: string }[] } | null } })
    .error;
}

describe('GET /v1/admin/keys', () => {
  it('never lists a key’s secret or the hash it is stored as', async () => {
    const created = await createKey('list-secret', ['reason']);
    const { res, text } = await listKeys('?tenant=list-secret');
    expect(res.status).toBe(200);
    expect(text).toContain(created.id);
    expect(text).not.toContain(created.key);
    expect(text).not.toContain(created.key.slice(3));
    expect(text).not.toContain(sha256Hex(created.key));
    expect(text).not.toMatch(/hash/i);
  });

  it('lists id, tenant, scopes, rate limit and times, newest first', async () => {
    const first = await createKey('list-fields', ['reason']);
    const res = await call('/v1/admin/keys', {
      method: 'POST',
      headers: { ...admin, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        tenant: 'list-fields',
        scopes: ['usage:read', 'reason'],
        rateLimitPerMinute: 7,
      }),
    });
    const second = (await res.json()) as { id: string };
    const page = await keysOf('?tenant=list-fields');
    expect(page.next).toBeNull();
    expect(page.keys.map((k) => k.id)).toEqual([second.id, first.id]);
    expect(page.keys[0]).toEqual({
      id: second.id,
      tenant: 'list-fields',
      scopes: ['usage:read', 'reason'],
      rateLimitPerMinute: 7,
      createdAt: expect.any(Number),
      revokedAt: null,
      lastUsedAt: null,
    });
    expect(page.keys[1]?.rateLimitPerMinute).toBeNull();
  });

  it('says when a key was last used and when it was revoked', async () => {
    const used = await createKey('list-use', ['reason']);
    expect((await reason(used.key, { task: 't', instructions: 'Say hi.' })).status).toBe(200);
    let listed = (await keysOf('?tenant=list-use')).keys[0];
    // Usage is written behind the answer.
    for (let i = 0; i < 50 && listed?.lastUsedAt === null; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      listed = (await keysOf('?tenant=list-use')).keys[0];
    }
    expect(listed?.lastUsedAt).toBeGreaterThanOrEqual(listed?.createdAt ?? Number.POSITIVE_INFINITY);
    await call(`/v1/admin/keys/${used.id}`, { method: 'DELETE', headers: admin });
    expect((await keysOf('?tenant=list-use')).keys[0]?.revokedAt).toEqual(expect.any(Number));
  });

  it('pages through every key once, by limit and cursor', async () => {
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push((await createKey('list-pages', ['reason'])).id);
    // Two keys created in the same millisecond keep an order: by id after the time.
    await env.DB.prepare('UPDATE api_keys SET created_at = 1000 WHERE tenant = ?').bind('list-pages').run();
    const seen: string[] = [];
    let cursor: string | null = '';
    let pages = 0;
    while (cursor !== null) {
      const page = await keysOf(`?tenant=list-pages&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.keys.length).toBeLessThanOrEqual(2);
      seen.push(...page.keys.map((k) => k.id));
      cursor = page.next;
      pages++;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids].sort().reverse());
  });

  it('lists every tenant’s keys without a tenant', async () => {
    const a = await createKey('list-all-a', ['reason']);
    const b = await createKey('list-all-b', ['reason']);
    const ids = (await keysOf('?limit=1000')).keys.map((k) => k.id);
    expect(ids).toEqual(expect.arrayContaining([a.id, b.id]));
  });

  it.each([
    ['a limit of 0', '?limit=0', '/limit'],
    ['a limit over 1000', '?limit=1001', '/limit'],
    ['a limit that is not a number', '?limit=ten', '/limit'],
    ['a cursor it did not answer', '?cursor=bm90LWEtY3Vyc29y', '/cursor'],
    ['a tenant that is not a tenant name', '?tenant=no%20spaces', '/tenant'],
    ['an unknown parameter', '?secret=1', '/secret'],
  ])('answers %s with a 400 naming the parameter', async (_, query, path) => {
    const { res, text } = await listKeys(query);
    expect(res.status).toBe(400);
    const error = await errorOf(new Response(text));
    expect(error.code).toBe('request.invalid');
    expect(error.details?.issues[0]?.path).toBe(path);
  });
});

describe('the console’s admin lists', () => {
  const lists = [
    '/v1/admin/keys',
    '/v1/admin/tenants',
    '/v1/admin/usage',
    '/v1/admin/models',
    '/v1/admin/receipts',
  ];

  it.each(lists)('%s needs the admin token, as the other admin endpoints do', async (path) => {
    const missing = await call(path);
    expect([missing.status, (await errorOf(missing)).code]).toEqual([401, 'auth.missing_key']);
    const wrong = await call(path, { headers: { Authorization: 'Bearer not-the-token' } });
    expect([wrong.status, (await errorOf(wrong)).code]).toEqual([401, 'auth.invalid_key']);
    // An API key, even one that reads usage and receipts, is not the admin token.
    const { key } = await createKey('list-auth');
    const byKey = await call(path, { headers: { Authorization: `Bearer ${key}` } });
    expect([byKey.status, (await errorOf(byKey)).code]).toEqual([401, 'auth.invalid_key']);
  });

  it.each(lists)('%s answers a method it does not take with 405', async (path) => {
    const res = await call(path, { method: 'PATCH', headers: admin });
    expect(res.status).toBe(405);
  });
});
