import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Catalog } from '../../src/policy/catalog';
import { createKey } from '../helpers/api';
import { simModel } from '../helpers/catalog-fixtures';
import { readStream, terminalOf } from '../helpers/read-stream';
import { reasonWithCatalog } from '../helpers/with-catalog';

// A provider answers a tool call whose arguments nest 5,000 levels deep: an answer Valve cannot read.
// It is the provider's failure (model.invalid_response), billed at what the provider reported, and the
// next planned model answers; never a 500, never `internal.error`, never a $0 record under `none`.

const depth = 5_000;
const deepArgs = `{"a":${'['.repeat(depth)}${']'.repeat(depth)}}`;
const usage = { prompt_tokens: 1_000, completion_tokens: 3_000, total_tokens: 4_000 };
const price = { input: 10, output: 50 };

// One provider id per test: each test's failures move only its own models' shared health.
function catalogOf(provider: string): Catalog {
  const wire = { provider, simulate: undefined, priceUsdPerMTok: price, maxOutputTokens: 8_192 };
  return {
    providers: [{ id: provider, kind: 'openai', apiKeyEnv: 'PROVIDER_WIRE_KEY' }],
    models: [
      simModel('deep-first', { ...wire, quality: 90 }),
      simModel('deep-second', { ...wire, quality: 10 }),
    ],
  };
}

const lookup = {
  name: 'lookup',
  description: 'Looks up an order.',
  inputSchema: { type: 'object' },
  annotations: { readOnly: true },
};

const frame = (data: unknown) => `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;

function deepJson(): Response {
  return Response.json({
    id: 'c1',
    object: 'chat.completion',
    model: 'deep-first',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup', arguments: deepArgs } }],
        },
        finish_reason: 'tool_calls',
      },
    ],
    usage,
  });
}

function deepSse(): Response {
  const chunk = (delta: unknown, finish: string | null) => ({
    id: 'c1',
    object: 'chat.completion.chunk',
    model: 'deep-first',
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const body = [
    frame(
      chunk(
        {
          role: 'assistant',
          tool_calls: [
            { index: 0, id: 'call_1', type: 'function', function: { name: 'lookup', arguments: deepArgs } },
          ],
        },
        null,
      ),
    ),
    frame(chunk({}, 'tool_calls')),
    frame({ id: 'c1', object: 'chat.completion.chunk', model: 'deep-first', choices: [], usage }),
    frame('[DONE]'),
  ].join('');
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}

function plainAnswer(stream: boolean): Response {
  if (!stream)
    return Response.json({
      id: 'c2',
      object: 'chat.completion',
      model: 'deep-second',
      choices: [
        { index: 0, message: { role: 'assistant', content: 'Order 42 ships today.' }, finish_reason: 'stop' },
      ],
      usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 },
    });
  const chunk = (delta: unknown, finish: string | null) => ({
    id: 'c2',
    object: 'chat.completion.chunk',
    model: 'deep-second',
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const body = [
    frame(chunk({ role: 'assistant', content: 'Order 42 ships today.' }, null)),
    frame(chunk({}, 'stop')),
    frame('[DONE]'),
  ].join('');
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}

/** The first model answers too deep, the second plainly. */
function fakeUpstream(stream: boolean): string[] {
  const models: string[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (_input, init) => {
    const wire = JSON.parse(String(init?.body)) as { model: string };
    models.push(wire.model);
    if (wire.model === 'deep-first') return stream ? deepSse() : deepJson();
    return plainAnswer(stream);
  });
  return models;
}

async function recordsOf(tenant: string) {
  const rows = await env.DB.prepare('SELECT model, cost_usd, outcome FROM usage_records WHERE tenant = ?')
    .bind(tenant)
    .all<{ model: string; cost_usd: number; outcome: string }>();
  return rows.results;
}

const request = {
  task: 'track',
  instructions: 'Track orders.',
  conversation: [{ role: 'user', content: 'Where is order 42?' }],
  tools: [lookup],
};
// What the provider reported for the unreadable answer, at the catalog's prices.
const firstCostUsd = (usage.prompt_tokens * price.input + usage.completion_tokens * price.output) / 1e6;

interface Attempt {
  model: string;
  outcome: string;
  costUsd: number;
  errorKind?: string;
}

afterEach(() => vi.restoreAllMocks());

describe('a provider answer whose tool-call arguments nest too deep to read', () => {
  it('(JSON) fails over to the next model, with the unreadable attempt billed and a receipt', async () => {
    const tenant = 'deep-args-json';
    const { key } = await createKey(tenant, ['reason']);
    const models = fakeUpstream(false);
    const { res, settled } = await reasonWithCatalog(catalogOf(tenant), key, request, {
      PROVIDER_WIRE_KEY: 'k',
    });
    const body = (await res.json()) as {
      model?: { model: string };
      receipt?: unknown;
      costUsd: number;
      decision: { attempts: Attempt[] };
    };
    await settled();
    expect(res.status, JSON.stringify(body).slice(0, 400)).toBe(200);
    expect(models).toEqual(['deep-first', 'deep-second']);
    expect(body.model?.model).toBe('deep-second');
    expect(body.receipt).toBeDefined();
    const first = body.decision.attempts[0];
    expect(first?.model).toBe('deep-first');
    expect(first?.errorKind).toBe('invalid_response');
    expect(first?.costUsd).toBeCloseTo(firstCostUsd, 6);
    expect(body.costUsd).toBeGreaterThan(firstCostUsd);
    const records = await recordsOf(tenant);
    expect(records).toHaveLength(1);
    expect(records[0]?.model).toBe(`${tenant}/deep-second`);
    expect(records[0]?.cost_usd).toBeGreaterThan(firstCostUsd);
  });

  it('(SSE) fails over before anything streamed, with no internal.error and the attempt billed', async () => {
    const tenant = 'deep-args-sse';
    const { key } = await createKey(tenant, ['reason']);
    const models = fakeUpstream(true);
    const { res, settled } = await reasonWithCatalog(
      catalogOf(tenant),
      key,
      request,
      { PROVIDER_WIRE_KEY: 'k' },
      { Accept: 'text/event-stream' },
    );
    expect(res.status).toBe(200);
    const events = await readStream(res);
    await settled();
    expect(events.map((event) => event.type)).not.toContain('internal.error');
    const terminal = terminalOf(events) as {
      type: string;
      response?: {
        model: { model: string };
        receipt?: unknown;
        costUsd: number;
        decision: { attempts: Attempt[] };
      };
    };
    expect(terminal.type, JSON.stringify(terminal).slice(0, 400)).toBe('response.completed');
    expect(models).toEqual(['deep-first', 'deep-second']);
    expect(terminal.response?.model.model).toBe('deep-second');
    expect(terminal.response?.receipt).toBeDefined();
    const first = terminal.response?.decision.attempts[0];
    expect(first?.errorKind).toBe('invalid_response');
    expect(first?.costUsd).toBeCloseTo(firstCostUsd, 6);
    const records = await recordsOf(tenant);
    expect(records).toHaveLength(1);
    expect(records[0]?.model).toBe(`${tenant}/deep-second`);
    expect(records[0]?.cost_usd).toBeGreaterThan(firstCostUsd);
  });
});

describe('a provider answer too deep to read, with no model to fall back on', () => {
  const alone = (provider: string) => ({
    ...request,
    modelPolicy: { pinned: { provider, model: 'deep-first' }, allowFallback: false },
  });

  it('(JSON) is model.invalid_response, recorded under the model and at the usage it billed', async () => {
    const tenant = 'deep-args-alone-json';
    const { key } = await createKey(tenant, ['reason']);
    fakeUpstream(false);
    const { res, settled } = await reasonWithCatalog(catalogOf(tenant), key, alone(tenant), {
      PROVIDER_WIRE_KEY: 'k',
    });
    const body = (await res.json()) as { error: { code: string } };
    await settled();
    expect(res.status).toBe(502);
    expect(body.error.code).toBe('model.invalid_response');
    const records = await recordsOf(tenant);
    expect(records).toEqual([
      {
        model: `${tenant}/deep-first`,
        cost_usd: expect.closeTo(firstCostUsd, 6),
        outcome: 'model.invalid_response',
      },
    ]);
  });

  it('(SSE) ends with a model.invalid_response error event, recorded at the usage it billed', async () => {
    const tenant = 'deep-args-alone-sse';
    const { key } = await createKey(tenant, ['reason']);
    fakeUpstream(true);
    const { res, settled } = await reasonWithCatalog(
      catalogOf(tenant),
      key,
      alone(tenant),
      { PROVIDER_WIRE_KEY: 'k' },
      { Accept: 'text/event-stream' },
    );
    const events = await readStream(res);
    await settled();
    const terminal = terminalOf(events) as {
      type: string;
      error?: { code: string };
      emittedDeltas?: boolean;
    };
    expect(terminal.type).toBe('response.error');
    expect(terminal.error?.code).toBe('model.invalid_response');
    expect(terminal.emittedDeltas).toBe(false);
    const records = await recordsOf(tenant);
    expect(records).toEqual([
      {
        model: `${tenant}/deep-first`,
        cost_usd: expect.closeTo(firstCostUsd, 6),
        outcome: 'model.invalid_response',
      },
    ]);
  });
});
