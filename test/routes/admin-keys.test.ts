import { describe, expect, it } from 'vitest';
import { adminToken, call, createKey, postJson, reason } from '../helpers/api';

const body = { task: 'summarize', instructions: 'Summarize.' };

async function errorCode(res: Response): Promise<string> {
  return ((await res.json()) as { error: { code: string } }).error.code;
}

describe('API keys', () => {
  it('creates a key shown once, stored only as a hash', async () => {
    const res = await postJson(
      '/v1/admin/keys',
      { tenant: 'acme', scopes: ['reason'] },
      { Authorization: `Bearer ${adminToken}` },
    );
    expect(res.status).toBe(201);
    const created = (await res.json()) as {
      id: string;
      key: string;
      tenant: string;
      scopes: string[];
      rateLimitPerMinute: number | null;
    };
    expect(created).toEqual({
      id: expect.stringMatching(/^key_[0-9a-f]{16}$/),
      key: expect.stringMatching(/^vk_[A-Za-z0-9_-]{43}$/),
      tenant: 'acme',
      scopes: ['reason'],
      rateLimitPerMinute: null,
    });
    const { env } = await import('cloudflare:workers');
    const row = await env.DB.prepare('SELECT * FROM api_keys WHERE id = ?')
      .bind(created.id)
      .first<Record<string, unknown>>();
    expect(Object.values(row ?? {})).not.toContain(created.key);
    expect(row?.key_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses admin calls without the admin token, or with a wrong one', async () => {
    const missing = await postJson('/v1/admin/keys', { tenant: 'acme', scopes: ['reason'] });
    expect([missing.status, await errorCode(missing)]).toEqual([401, 'auth.missing_key']);
    const wrong = await postJson(
      '/v1/admin/keys',
      { tenant: 'acme', scopes: ['reason'] },
      { Authorization: 'Bearer nope' },
    );
    expect([wrong.status, await errorCode(wrong)]).toEqual([401, 'auth.invalid_key']);
  });

  it('validates the key request', async () => {
    const res = await postJson(
      '/v1/admin/keys',
      { tenant: 'acme', scopes: ['everything'] },
      { Authorization: `Bearer ${adminToken}` },
    );
    expect([res.status, await errorCode(res)]).toEqual([400, 'request.invalid']);
  });

  it('answers missing, wrong, revoked and under-scoped keys with 401, 401, 401 and 403', async () => {
    const missing = await postJson('/v1/reason', body);
    expect([missing.status, await errorCode(missing)]).toEqual([401, 'auth.missing_key']);
    expect(missing.headers.get('WWW-Authenticate')).toContain('Bearer');

    const wrong = await reason('vk_not-a-real-key', body);
    expect([wrong.status, await errorCode(wrong)]).toEqual([401, 'auth.invalid_key']);

    const revoked = await createKey('acme', ['reason']);
    // Used once first, so the key sits in the isolate's lookup cache when it is revoked.
    expect((await reason(revoked.key, body)).status).toBe(200);
    const del = await call(`/v1/admin/keys/${revoked.id}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${adminToken}` },
    });
    expect(del.status).toBe(200);
    expect(await del.json()).toMatchObject({ id: revoked.id, revoked: true });
    const afterRevoke = await reason(revoked.key, body);
    expect([afterRevoke.status, await errorCode(afterRevoke)]).toEqual([401, 'auth.revoked_key']);

    const reader = await createKey('acme', ['usage:read']);
    const forbidden = await reason(reader.key, body);
    expect([forbidden.status, await errorCode(forbidden)]).toEqual([403, 'auth.forbidden']);
  });

  it('answers 404 for revoking an unknown key', async () => {
    const res = await call('/v1/admin/keys/key_0000000000000000', {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${adminToken}` },
    });
    expect([res.status, await errorCode(res)]).toEqual([404, 'request.not_found']);
  });

  it('checks the key before reading the body', async () => {
    const res = await call('/v1/reason', {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body: 'x',
    });
    expect([res.status, await errorCode(res)]).toEqual([401, 'auth.missing_key']);
  });
});
