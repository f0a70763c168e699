import { beforeAll, describe, expect, it } from 'vitest';
import { adminToken, call, createKey } from '../helpers/api';
import { errorValidator, validates } from '../helpers/json-schemas';

// The operator and discovery endpoints get bad input too: every case is a 4xx with the one error body.

let key = '';
beforeAll(async () => {
  key = (await createKey('fuzz', ['reason', 'usage:read', 'receipts:read'])).key;
});

const admin = { Authorization: `Bearer ${adminToken}` };
const json = { 'Content-Type': 'application/json' };

const cases: [string, string, RequestInit, 'key' | 'admin' | 'none'][] = [
  ['usage with a bad date', '/v1/usage?from=2026-13-45x', {}, 'key'],
  ['usage with an unknown parameter', '/v1/usage?tenant=other', {}, 'key'],
  ['usage grouped by nonsense', '/v1/usage?groupBy=model,model,day', {}, 'key'],
  ['usage with a broken percent-encoding', '/v1/usage?from=%E0%A4%A', {}, 'key'],
  ['audit with a negative cursor', '/v1/admin/audit?after=-1', {}, 'admin'],
  ['audit with a word for a limit', '/v1/admin/audit?limit=many', {}, 'admin'],
  ['audit with a huge limit', '/v1/admin/audit?limit=1000000', {}, 'admin'],
  ['budget of a tenant with a broken percent-encoding', '/v1/admin/tenants/%ZZ/budget', {}, 'admin'],
  ['budget of a tenant name too long', `/v1/admin/tenants/${'x'.repeat(80)}/budget`, {}, 'admin'],
  [
    'budget as a string',
    '/v1/admin/tenants/acme/budget',
    { method: 'PUT', headers: json, body: '{"monthlyCapUsd":"ten"}' },
    'admin',
  ],
  [
    'budget with an extra field',
    '/v1/admin/tenants/acme/budget',
    { method: 'PUT', headers: json, body: '{"monthlyCapUsd":1,"x":1}' },
    'admin',
  ],
  [
    'budget as text',
    '/v1/admin/tenants/acme/budget',
    { method: 'PUT', headers: { 'Content-Type': 'text/plain' }, body: 'x' },
    'admin',
  ],
  [
    'budget with broken JSON',
    '/v1/admin/tenants/acme/budget',
    { method: 'PUT', headers: json, body: '{' },
    'admin',
  ],
  [
    'key with no scopes',
    '/v1/admin/keys',
    { method: 'POST', headers: json, body: '{"tenant":"a","scopes":[]}' },
    'admin',
  ],
  [
    'key with a fractional rate limit',
    '/v1/admin/keys',
    { method: 'POST', headers: json, body: '{"tenant":"a","scopes":["reason"],"rateLimitPerMinute":1.5}' },
    'admin',
  ],
  [
    'key with a tenant of spaces',
    '/v1/admin/keys',
    { method: 'POST', headers: json, body: '{"tenant":"a b","scopes":["reason"]}' },
    'admin',
  ],
  ['revoking a key with a broken percent-encoding', '/v1/admin/keys/%E0%A4%A', { method: 'DELETE' }, 'admin'],
  ['keys listed with a broken percent-encoding', '/v1/admin/keys?tenant=%E0%A4%A', {}, 'admin'],
  ['keys listed after a cursor of nonsense', '/v1/admin/keys?cursor=%00%01', {}, 'admin'],
  ['keys listed with a limit given twice', '/v1/admin/keys?limit=1&limit=2', {}, 'admin'],
  ['tenants listed with a fractional limit', '/v1/admin/tenants?limit=1.5', {}, 'admin'],
  ['usage of all tenants with a bad date', '/v1/admin/usage?to=2026-02-30', {}, 'admin'],
  ['usage of all tenants grouped twice by tenant', '/v1/admin/usage?groupBy=tenant,tenant', {}, 'admin'],
  ['receipts listed with a cursor too long', `/v1/admin/receipts?cursor=${'A'.repeat(2000)}`, {}, 'admin'],
  ['models of the console by a wrong method', '/v1/admin/models', { method: 'DELETE' }, 'admin'],
  ['models with a wrong method', '/v1/models', { method: 'POST' }, 'key'],
  ['models without a key', '/v1/models', {}, 'none'],
  ['an unknown path under /v1', '/v1/nothing-here', {}, 'key'],
  ['a path with a broken percent-encoding', '/v1/%E0%A4%A', {}, 'key'],
];

describe('malformed operator requests', () => {
  it.each(cases)('%s → 4xx with the error body', async (_, path, init, auth) => {
    const headers = new Headers(init.headers);
    if (auth === 'key') headers.set('Authorization', `Bearer ${key}`);
    if (auth === 'admin') headers.set('Authorization', admin.Authorization);
    const res = await call(path, { ...init, headers });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(validates(errorValidator, await res.json())).toBe(true);
  });
});
