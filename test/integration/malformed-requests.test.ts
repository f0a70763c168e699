import { beforeAll, describe, expect, it } from 'vitest';
import { reasonRequestSchema } from '../../src/contracts/reason-request';
import { call, createKey } from '../helpers/api';
import { errorValidator, validates } from '../helpers/json-schemas';

// Hundreds of generated malformed requests: every one must get a 4xx with the one error body, none a 5xx.

const valid = {
  task: 'summarize',
  instructions: 'Summarize.',
  context: [{ label: 'l', trust: 'untrusted', privacy: 'internal', content: 'c' }],
  conversation: [{ role: 'user', content: 'hi' }],
  tools: [
    { name: 'lookup', description: 'd', inputSchema: { type: 'object' }, annotations: { readOnly: true } },
  ],
  output: { format: 'json', schema: { type: 'object' } },
  modelPolicy: {
    prefer: 'cost',
    pinned: { provider: 'sim', model: 'fast' },
    allowFallback: true,
    regions: ['eu'],
    maxCostUsd: 1,
    maxLatencyMs: 5000,
    maxOutputTokens: 100,
  },
  receiptId: '3f0e2a6c-5b1d-4c8e-9a7f-0123456789ab',
  receiptSalt: 'A'.repeat(43),
};

type Path = (string | number)[];

function setAt(value: unknown, path: Path, replacement: unknown, remove = false): unknown {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  if (remove) delete node[last];
  else node[last] = replacement;
  return copy;
}

function pathsOf(value: unknown, prefix: Path = []): Path[] {
  if (value === null || typeof value !== 'object') return [];
  const out: Path[] = [];
  for (const [key, child] of Object.entries(value)) {
    const path = [...prefix, Array.isArray(value) ? Number(key) : key];
    if (path.includes('schema') && path[path.length - 1] !== 'schema') continue;
    if (path.includes('inputSchema') && path[path.length - 1] !== 'inputSchema') continue;
    out.push(path, ...pathsOf(child, path));
  }
  return out;
}

interface Case {
  name: string;
  init: RequestInit;
  path?: string;
}

function jsonCase(name: string, body: unknown): Case {
  return {
    name,
    init: { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) },
  };
}

function nested(depth: number): string {
  return `${'['.repeat(depth)}${']'.repeat(depth)}`;
}

function buildCases(): Case[] {
  const cases: Case[] = [];
  const wrongValues: unknown[] = [1, -1.5, true, null, 'text', [], {}, ['x'], { x: 1 }];
  for (const path of pathsOf(valid)) {
    for (const wrong of wrongValues) {
      const body = setAt(valid, path, wrong);
      if (reasonRequestSchema.safeParse(body).success) continue;
      cases.push(jsonCase(`${path.join('.')} = ${JSON.stringify(wrong)}`, body));
    }
    const removed = setAt(valid, path, undefined, true);
    if (!reasonRequestSchema.safeParse(removed).success)
      cases.push(jsonCase(`without ${path.join('.')}`, removed));
  }
  for (const path of [
    [],
    ['context', 0],
    ['conversation', 0],
    ['tools', 0],
    ['tools', 0, 'annotations'],
    ['output'],
    ['modelPolicy'],
    ['modelPolicy', 'pinned'],
  ] as Path[]) {
    cases.push(jsonCase(`extra field at /${path.join('/')}`, setAt(valid, [...path, 'unexpected'], 1)));
  }
  for (const id of [
    '',
    'x',
    '3f0e2a6c5b1d4c8e9a7f0123456789ab',
    '3F0E2A6C-5B1D-4C8E-9A7F-0123456789AB',
    '{3f0e2a6c-5b1d-4c8e-9a7f-0123456789ab}',
    '3f0e2a6c-5b1d-0c8e-9a7f-0123456789ab',
    '3f0e2a6c-5b1d-4c8e-1a7f-0123456789ab',
  ]) {
    cases.push(jsonCase(`receiptId ${JSON.stringify(id)}`, { ...valid, receiptId: id }));
  }
  for (const salt of [
    '',
    'A'.repeat(42),
    `${'A'.repeat(43)}=`,
    `${'A'.repeat(43)}+`,
    `${'A'.repeat(43)}/`,
    ' '.repeat(50),
    'A'.repeat(513),
    `${'é'.repeat(43)}`,
  ]) {
    cases.push(
      jsonCase(`receiptSalt ${JSON.stringify(salt.slice(-3))} of ${salt.length} chars`, {
        ...valid,
        receiptSalt: salt,
      }),
    );
  }
  cases.push(jsonCase('task of 10k characters', { ...valid, task: 'x'.repeat(10_000) }));
  cases.push(jsonCase('label of 1k characters', setAt(valid, ['context', 0, 'label'], 'x'.repeat(1000))));
  cases.push(jsonCase('tool name of 65 characters', setAt(valid, ['tools', 0, 'name'], 'x'.repeat(65))));
  cases.push({
    name: 'body over 1 MiB',
    init: {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...valid, instructions: 'x'.repeat(1_100_000) }),
    },
  });
  cases.push({
    name: 'deeply nested arrays (100k)',
    init: { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: nested(100_000) },
  });
  cases.push(
    jsonCase('deeply nested context content (task missing)', {
      instructions: 'x',
      context: [{ trust: 'untrusted', privacy: 'public', content: JSON.parse(nested(500)) }],
    }),
  );
  for (const text of [
    '',
    '{',
    '{"task":',
    'null',
    '[]',
    '"str"',
    '42',
    '{"task":"a",}',
    "{'task':'a'}",
    '{"task":"a" "instructions":"b"}',
    'NaN',
    '\u0000',
    '{"task":"\\x"}',
  ]) {
    cases.push({
      name: `body ${JSON.stringify(text)}`,
      init: { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: text },
    });
  }
  for (const type of [
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/xml',
    'application/jsonx',
    '',
  ]) {
    cases.push({
      name: `content type ${JSON.stringify(type)}`,
      init: { method: 'POST', headers: type ? { 'Content-Type': type } : {}, body: JSON.stringify(valid) },
    });
  }
  for (const method of ['GET', 'PUT', 'PATCH', 'DELETE']) {
    cases.push({ name: `method ${method}`, init: { method } });
  }
  cases.push({
    name: 'unknown path',
    init: { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' },
    path: '/v1/reasons',
  });
  return cases;
}

const cases = buildCases();
let key = '';

beforeAll(async () => {
  key = (await createKey()).key;
});

describe('malformed requests to POST /v1/reason', () => {
  it('generates at least 200 distinct cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(200);
    expect(new Set(cases.map((c) => c.name)).size).toBe(cases.length);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s → 4xx with the error body', async (_, c) => {
    const headers = new Headers(c.init.headers);
    headers.set('Authorization', `Bearer ${key}`);
    const res = await call(c.path ?? '/v1/reason', { ...c.init, headers });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    const json = await res.json();
    expect(validates(errorValidator, json)).toBe(true);
  });

  it('names the unknown field and never echoes a value', async () => {
    const secret = 'sk-do-not-echo-me';
    const res = await call('/v1/reason', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${key}` },
      body: JSON.stringify({ ...valid, modelPolicy: { ...valid.modelPolicy, maxCostUSD: secret }, task: 7 }),
    });
    expect(res.status).toBe(400);
    const text = await res.text();
    expect(text).not.toContain(secret);
    const json = JSON.parse(text) as { error: { details: { issues: { path: string; message: string }[] } } };
    expect(json.error.details.issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: '/modelPolicy/maxCostUSD', message: 'unknown field `maxCostUSD`' }),
        expect.objectContaining({ path: '/task' }),
      ]),
    );
  });

  it('answers status codes by kind: 413 too large, 415 not JSON, 400 malformed', async () => {
    const headers = { Authorization: `Bearer ${key}` };
    // A route that takes media reads up to MAX_MEDIA_BODY_BYTES (18 MiB); every other one 1 MiB.
    const big = await call('/v1/reason', {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: 'x'.repeat(18_874_369),
    });
    expect(big.status).toBe(413);
    const bigElsewhere = await call('/v1/receipts/verify', {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: 'x'.repeat(1_048_577),
    });
    expect(bigElsewhere.status).toBe(413);
    // Text alone over 1 MiB on the media route, with no media at all: still 413, once parsed.
    const words = {
      task: 't',
      instructions: 'i',
      context: [{ trust: 'untrusted', privacy: 'internal', content: 'x'.repeat(1_048_577) }],
    };
    const bigText = await call('/v1/reason', {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify(words),
    });
    expect(bigText.status).toBe(413);
    const text = await call('/v1/reason', {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'text/plain' },
      body: '{}',
    });
    expect(text.status).toBe(415);
    const broken = await call('/v1/reason', {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: '{',
    });
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { error: { code: string } }).error.code).toBe('request.malformed_json');
  });
});
