import { Validator } from '@cfworker/json-schema';
import { beforeAll, describe, expect, it } from 'vitest';
import { adminToken, call, createKey, reason } from '../helpers/api';

// The admin lists of the operator's console, answered as /openapi.json says: each status one the
// operation declares, each body fitting that status's schema, the error bodies Valve's one shape.

type JsonObject = Record<string, unknown>;

let document: JsonObject;

beforeAll(async () => {
  document = (await (await call('/openapi.json')).json()) as JsonObject;
  const { key } = await createKey('console-doc');
  await reason(key, { task: 't', instructions: 'Hi.' });
});

function operationOf(path: string): JsonObject {
  const operation = (document.paths as Record<string, Record<string, JsonObject>>)[path]?.get;
  if (operation === undefined) throw new Error(`the document has no GET ${path}`);
  return operation;
}

async function expectDocumented(path: string, res: Response): Promise<JsonObject> {
  const responses = operationOf(path).responses as Record<string, JsonObject>;
  const content = responses[String(res.status)]?.content as
    | Record<string, { schema: JsonObject }>
    | undefined;
  const schema = content?.['application/json']?.schema;
  expect(schema, `GET ${path} does not declare ${res.status}`).toBeDefined();
  const body = (await res.json()) as JsonObject;
  const validator = new Validator({ ...schema, components: document.components }, '2020-12', false);
  expect(validator.validate(body).errors).toEqual([]);
  return body;
}

const admin = { Authorization: `Bearer ${adminToken}` };
const lists = [
  '/v1/admin/keys',
  '/v1/admin/tenants',
  '/v1/admin/usage',
  '/v1/admin/models',
  '/v1/admin/receipts',
  '/v1/admin/approvals',
];
const paged = [
  '/v1/admin/keys',
  '/v1/admin/tenants',
  '/v1/admin/usage',
  '/v1/admin/receipts',
  '/v1/admin/approvals',
];

describe('the console’s admin lists as documented', () => {
  it.each(lists)('GET %s answers a 200 its schema allows', async (path) => {
    await expectDocumented(path, await call(path, { headers: admin }));
  });

  it.each(lists)('GET %s answers a wrong token with a declared 401', async (path) => {
    const body = await expectDocumented(path, await call(path, { headers: { Authorization: 'Bearer x' } }));
    expect((body.error as JsonObject).code).toBe('auth.invalid_key');
  });

  it.each(paged)(
    'GET %s documents limit and cursor, and answers a bad cursor with a declared 400',
    async (path) => {
      const names = (operationOf(path).parameters as { name?: string }[]).map((p) => p.name);
      expect(names).toEqual(expect.arrayContaining(['limit', 'cursor']));
      const body = await expectDocumented(path, await call(`${path}?cursor=x`, { headers: admin }));
      expect((body.error as JsonObject).code).toBe('request.invalid');
    },
  );

  it('refuses a body with a secret in it (the check bites)', async () => {
    const responses = operationOf('/v1/admin/keys').responses as Record<string, JsonObject>;
    const content = (responses['200']?.content ?? {}) as Record<string, { schema: JsonObject }>;
    const schema = content['application/json']?.schema ?? {};
    const listed = {
      id: 'key_1',
      tenant: 'a',
      scopes: [],
      rateLimitPerMinute: null,
      createdAt: 1,
      revokedAt: null,
      lastUsedAt: null,
    };
    const validator = new Validator({ ...schema, components: document.components }, '2020-12', false);
    expect(validator.validate({ keys: [listed], next: null }).valid).toBe(true);
    expect(validator.validate({ keys: [{ ...listed, key: 'vk_x' }], next: null }).valid).toBe(false);
  });
});
