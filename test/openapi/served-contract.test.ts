import { Validator } from '@cfworker/json-schema';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, createKey, logSize, postJson, reason } from '../helpers/api';

// What the server answers, checked against what /openapi.json says it answers: each status must be one
// the operation declares, and each body must fit that status's schema. Each case is one a schema-driven
// fuzzer found where the two disagreed.

type JsonObject = Record<string, unknown>;

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema: JsonObject;
  style?: string;
  explode?: boolean;
}

let document: JsonObject;

beforeAll(async () => {
  document = (await (await call('/openapi.json')).json()) as JsonObject;
});

function operationOf(method: string, path: string): JsonObject {
  const operation = (document.paths as Record<string, Record<string, JsonObject>>)[path]?.[method];
  if (operation === undefined) throw new Error(`the document has no ${method} ${path}`);
  return operation;
}

/** An operation's parameter, `$ref`s to shared parameters followed. */
function parameterOf(method: string, path: string, name: string): Parameter {
  const shared = (document.components as { parameters?: Record<string, Parameter> }).parameters ?? {};
  const parameters = (operationOf(method, path).parameters as (Parameter | { $ref: string })[]).map((p) =>
    '$ref' in p ? (shared[p.$ref.replace('#/components/parameters/', '')] as Parameter) : p,
  );
  const found = parameters.find((p) => p.name === name);
  if (found === undefined) throw new Error(`${method} ${path} has no parameter ${name}`);
  return found;
}

/** A validator of a schema inside the document, able to follow its `#/components/...` references. */
function validatorOf(schema: JsonObject): Validator {
  return new Validator({ ...schema, components: document.components }, '2020-12', false);
}

/** The JSON schema of one declared response of an operation. */
function responseSchemaOf(method: string, path: string, status: number): JsonObject | undefined {
  const responses = operationOf(method, path).responses as Record<string, JsonObject>;
  const content = responses[String(status)]?.content as Record<string, { schema: JsonObject }> | undefined;
  return content?.['application/json']?.schema;
}

/** The answer's body, once its status is declared by the operation and the body fits that status's schema. */
async function asDocumented(method: string, path: string, res: Response): Promise<JsonObject> {
  const schema = responseSchemaOf(method, path, res.status);
  expect(schema, `${method} ${path} does not declare ${res.status} with a JSON body`).toBeDefined();
  const body = (await res.json()) as JsonObject;
  expect(validatorOf(schema ?? {}).validate(body).errors).toEqual([]);
  return body;
}

function firstIssueOf(body: JsonObject): { path: string; message: string } | undefined {
  return (body.error as { details: { issues: { path: string; message: string }[] } }).details.issues[0];
}

describe('GET /health as documented', () => {
  it('answers a body the 200 schema allows, write-behind figures included', async () => {
    const body = await asDocumented('get', '/health', await call('/health'));
    expect(body.writeBehind).toEqual({ retriedBatches: 0, lostReceipts: 0, lostUsageRecords: 0 });
  });
});

describe('GET /v1/log/inclusion as documented', () => {
  it('marks index and size as required', () => {
    expect(parameterOf('get', '/v1/log/inclusion', 'index').required).toBe(true);
    expect(parameterOf('get', '/v1/log/inclusion', 'size').required).toBe(true);
  });

  it('answers a missing size with a declared 400 that says it is required', async () => {
    const body = await asDocumented('get', '/v1/log/inclusion', await call('/v1/log/inclusion?index=0'));
    expect(firstIssueOf(body)).toEqual({ path: '/size', code: 'invalid_type', message: 'is required' });
    expect(JSON.stringify(body)).not.toContain('NaN');
  });

  it.each([
    ['not a number', 'abc'],
    ['a fraction', '1.5'],
    ['an exponent', '1e3'],
    ['a hexadecimal number', '0x10'],
    ['empty', ''],
  ])('answers a size that is %s with a declared 400 asking for a whole number', async (_, size) => {
    const res = await call(`/v1/log/inclusion?index=0&size=${encodeURIComponent(size)}`);
    expect(res.status).toBe(400);
    const body = await asDocumented('get', '/v1/log/inclusion', res);
    expect(firstIssueOf(body)?.message).toBe('must be a whole number');
  });

  it('answers a repeated parameter with a declared 400 saying to give it once', async () => {
    const res = await call('/v1/log/inclusion?index=0&size=1&size=2');
    expect(res.status).toBe(400);
    expect(firstIssueOf(await asDocumented('get', '/v1/log/inclusion', res))?.message).toBe(
      'must be given once',
    );
  });

  it('documents the index and size types as integers', () => {
    expect(parameterOf('get', '/v1/log/inclusion', 'index').schema).toMatchObject({
      type: 'integer',
      minimum: 0,
    });
    expect(parameterOf('get', '/v1/log/inclusion', 'size').schema).toMatchObject({
      type: 'integer',
      minimum: 1,
    });
  });
});

describe('GET /v1/log/consistency as documented', () => {
  it('says that sizes run from 1 to the log’s size, and declares the 400 for a range past it', async () => {
    const operation = operationOf('get', '/v1/log/consistency');
    expect(parameterOf('get', '/v1/log/consistency', 'from').schema).toMatchObject({ minimum: 1 });
    expect(parameterOf('get', '/v1/log/consistency', 'to').schema).toMatchObject({ minimum: 1 });
    expect(String(operation.description)).toContain('the log’s size');
    const size = await logSize();
    const past = await call(`/v1/log/consistency?from=1&to=${size + 1_000_000}`);
    expect(past.status).toBe(400);
    const body = await asDocumented('get', '/v1/log/consistency', past);
    expect((body.error as { code: string }).code).toBe('log.invalid_range');
  });

  it('refuses a code the 400 does not declare for it (the check bites)', async () => {
    const schema = responseSchemaOf('get', '/v1/log/consistency', 400) ?? {};
    const body = {
      error: {
        code: 'receipt.invalid_bundle',
        message: 'x',
        category: 'receipt',
        retryable: false,
        details: null,
        requestId: 'r',
      },
    };
    expect(validatorOf(schema).validate(body).valid).toBe(false);
  });
});

describe('GET /v1/usage as documented', () => {
  // [value, whether it is a bound]: the document's schema and the server must agree on each.
  const bounds: [string, boolean][] = [
    ['2026-01-31', true],
    ['2024-02-29', true],
    ['2026-01-31T12:00:00Z', true],
    ['2026-01-31t12:00:00.5z', true],
    ['2026-01-31T13:00:00+01:00', true],
    ['2016-12-31T23:59:60Z', true],
    ['0099-12-31', true],
    ['yesterday', false],
    ['2026-02-30', false],
    ['2026-01-31T12:00Z', false],
    ['2026-01-31T12:00:00', false],
    ['2026-01-31T24:00:00Z', false],
  ];

  it.each(bounds)('agrees with the server on whether %s is a bound (%s)', async (bound, isBound) => {
    const { key } = await createKey('usage-doc', ['usage:read']);
    const schema = parameterOf('get', '/v1/usage', 'from').schema;
    expect(validatorOf(schema).validate(bound).valid).toBe(isBound);
    const res = await call(`/v1/usage?from=${encodeURIComponent(bound)}&to=9999-12-31`, {
      headers: { Authorization: `Bearer ${key}` },
    });
    expect(res.status).toBe(isBound ? 200 : 400);
    await asDocumented('get', '/v1/usage', res);
  });

  it('counts a day of the first century in that century, not in the 1900s', async () => {
    const { key } = await createKey('usage-doc', ['usage:read']);
    const res = await call('/v1/usage?from=0099-01-01&to=0100-01-01', {
      headers: { Authorization: `Bearer ${key}` },
    });
    expect(res.status).toBe(200);
  });

  it('documents groupBy as a comma-separated list of model and day', () => {
    expect(parameterOf('get', '/v1/usage', 'groupBy')).toMatchObject({
      style: 'form',
      explode: false,
      schema: { type: 'array', items: { enum: ['model', 'day'] }, minItems: 1, uniqueItems: true },
    });
  });

  it.each([
    ['comma-separated', 'groupBy=model,day', ['model', 'day']],
    ['repeated', 'groupBy=model&groupBy=day', ['model', 'day']],
  ])('takes groupBy %s', async (_, query, groupBy) => {
    const a = await createKey('usage-group', ['reason', 'usage:read']);
    await reason(a.key, { task: 'summarize', instructions: 'Summarize.' });
    const res = await call(`/v1/usage?${query}`, { headers: { Authorization: `Bearer ${a.key}` } });
    expect(res.status).toBe(200);
    expect((await asDocumented('get', '/v1/usage', res)).groupBy).toEqual(groupBy);
  });

  it.each([
    ['other than model or day', 'groupBy=tenant', { path: '/groupBy/0', message: 'must be model or day' }],
    ['naming a group twice', 'groupBy=day,day', { path: '/groupBy', message: 'must not name a value twice' }],
    [
      'repeating a group',
      'groupBy=day&groupBy=day',
      { path: '/groupBy', message: 'must not name a value twice' },
    ],
    ['empty', 'groupBy=', { path: '/groupBy/0', message: 'must be model or day' }],
  ])('answers a groupBy %s with a declared 400 naming it', async (_, query, issue) => {
    const { key } = await createKey('usage-doc', ['usage:read']);
    const res = await call(`/v1/usage?${query}`, { headers: { Authorization: `Bearer ${key}` } });
    expect(res.status).toBe(400);
    expect(firstIssueOf(await asDocumented('get', '/v1/usage', res))).toMatchObject(issue);
  });
});

describe('request bodies as documented', () => {
  const chat = '/openai/v1/chat/completions';
  const responses = '/openai/v1/responses';
  const verify = '/v1/receipts/verify';
  const user = { role: 'user', content: 'Hi' };
  const asked = { model: 'auto', messages: [user] };
  const input = { model: 'auto', input: 'Hi' };
  const call = { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' };
  const bundle = { jws: 'x', proof: 'y' };
  const key = 'A'.repeat(43);

  // [path, body, whether the server takes it]: the document's body schema must say the same. Each is a
  // field the server checks beyond its type: a neutral value, a stateless refusal, a part Valve maps.
  const bodies: [string, JsonObject, boolean][] = [
    [chat, { ...asked, store: false, logit_bias: {}, modalities: ['text'] }, true],
    [chat, { ...asked, store: true }, false],
    [chat, { ...asked, logit_bias: { '50256': -100 } }, false],
    [chat, { ...asked, modalities: ['text', 'audio'] }, false],
    [
      chat,
      { ...asked, messages: [{ role: 'user', content: [{ type: 'image_url', image_url: {} }] }] },
      false,
    ],
    [
      responses,
      { ...input, conversation: null, previous_response_id: null, store: false, include: [] },
      true,
    ],
    [responses, { ...input, conversation: 'conv_1' }, false],
    [responses, { ...input, previous_response_id: 'resp_1' }, false],
    [responses, { ...input, store: true }, false],
    [responses, { ...input, include: ['message.output_text.logprobs'] }, false],
    [
      responses,
      { ...input, input: [user, call, { type: 'function_call_output', call_id: 'c1', output: 'ok' }] },
      true,
    ],
    [responses, { ...input, input: [{ type: 'reasoning', summary: [] }] }, false],
    [responses, { ...input, input: [{ type: 'function_call', name: 'f', arguments: '{}' }] }, false],
    [
      verify,
      { ...bundle, open: { 'req.task': { value: 'x', key }, 'req.context[0]': { value: 1, key } } },
      true,
    ],
    [verify, { ...bundle, open: { 'req.nothing': { value: 1 } } }, false],
  ];

  it.each(bodies)('POST %s with %j: the document agrees with the server (%s)', async (path, body, takes) => {
    const { key } = await createKey('bodies-doc');
    const res = await postJson(path, body, { Authorization: `Bearer ${key}` });
    expect(res.status, await res.clone().text()).toBe(takes ? 200 : 400);
    const operation = operationOf('post', path);
    const schema = (operation.requestBody as { content: Record<string, { schema: JsonObject }> }).content[
      'application/json'
    ]?.schema;
    expect(validatorOf(schema ?? {}).validate(body).valid).toBe(takes);
    await asDocumented('post', path, res);
  });
});
