import { env, exports } from 'cloudflare:workers';
import { expect, it } from 'vitest';

it('answers through the worker with the migrated D1 schema', async () => {
  const res = await exports.default.fetch('http://valve/');
  expect(res.status).toBe(200);
  const row = await env.DB.prepare("SELECT name FROM sqlite_master WHERE name = 'api_keys'").first();
  expect(row).toEqual({ name: 'api_keys' });
});
