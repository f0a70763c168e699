import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type Behaviour,
  type FakeUpstream,
  fixture,
  sseFixture,
  startFakeUpstream,
} from '../fake-upstream/fake-upstream';
import { type RunningValve, startValve } from '../helpers/start-valve';

// Every fault of issue 6 through the whole `POST /v1/reason` JSON path: the real worker (workerd)
// calls a fake upstream over a real socket. The primary is an OpenAI-kind provider, the backup an
// Anthropic-kind one, both pointed at the fake upstream by `baseUrl`.
//
// These tests run against the current attempt loop (src/reason/call-attempts.ts: one attempt per
// planned model, fail over on any ModelError). Assertions are written as the bounds that hold both
// now and once the retry loop lands (at most 1 + 2 retries per model, retries spaced by backoff or
// Retry-After); the few that need the retry loop or the health circuit are in the last describe,
// marked `it.fails` so that they flip (and must be unmarked) when that work is merged.

const maxLatencyMs = 2500;
/** Time outside the budget: the client's round trip to the worker and the worker's own work. */
const overheadMs = 400;

const model = (
  provider: string,
  name: string,
  quality: number,
  contextTokens: number,
  price: [number, number],
) => ({
  provider,
  model: name,
  regions: ['eu'],
  priceUsdPerMTok: { input: price[0], output: price[1] },
  quality,
  latency: { ttftMsP50: 50, ttftMsP90: 100, outputTokensPerSec: 5000 },
  contextTokens,
  maxOutputTokens: 4096,
  capabilities: { tools: true, json: 'native', reasoning: false, base64Data: false },
  maxPrivacy: 'confidential',
});

let upstream: FakeUpstream;
let valve: RunningValve;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  valve = await startValve({
    catalog: {
      providers: [
        { id: 'primary', kind: 'openai', baseUrl: `${upstream.url}/primary/v1`, apiKeyEnv: 'OPENAI_API_KEY' },
        {
          id: 'backup',
          kind: 'anthropic',
          baseUrl: `${upstream.url}/backup/v1`,
          apiKeyEnv: 'ANTHROPIC_API_KEY',
        },
      ],
      models: [
        model('primary', 'gpt-test', 90, 32_000, [1, 2]),
        model('backup', 'claude-test', 80, 200_000, [3, 15]),
      ],
    },
    vars: { OPENAI_API_KEY: 'test-openai', ANTHROPIC_API_KEY: 'test-anthropic' },
  });
});

afterAll(async () => {
  await valve?.stop();
  await upstream?.close();
});

beforeEach(() => {
  upstream.clear();
  upstream.script('backup', [{ type: 'json', body: fixture('anthropic/text.json') }]);
});

interface ReasonResult {
  status: number;
  json: Record<string, unknown> & {
    model?: { provider: string; model: string };
    output?: { format: string; text?: string };
    finishReason?: string;
    costUsd?: number;
    decision?: { attempts: { provider: string; outcome: string; errorKind?: string; costUsd: number }[] };
    error?: { code: string; details?: Record<string, unknown> };
  };
  ms: number;
}

async function reason(): Promise<ReasonResult> {
  const began = performance.now();
  const res = await fetch(`${valve.url}/v1/reason`, {
    method: 'POST',
    headers: { authorization: `Bearer ${valve.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      task: 'summarize',
      instructions: 'Summarize the ticket in one sentence.',
      context: [{ trust: 'untrusted', privacy: 'internal', content: 'The printer is on fire.' }],
      modelPolicy: { maxLatencyMs },
    }),
  });
  const json = (await res.json()) as ReasonResult['json'];
  return { status: res.status, json, ms: performance.now() - began };
}

/** How many requests a route saw, and that consecutive ones were at least `minGapMs` apart. */
function attemptsOn(route: string, minGapMs = 0): number {
  const times = upstream.arrivals(route).map((arrival) => arrival.at);
  for (let i = 1; i < times.length; i++)
    expect((times[i] as number) - (times[i - 1] as number)).toBeGreaterThanOrEqual(minGapMs);
  return times.length;
}

const backupAnswer = 'Hello!';
const backupCost = (10 * 3 + 5 * 15) / 1e6;
const primaryCost = (16 * 1 + 363 * 2) / 1e6;

function expectAnsweredByBackup(result: ReasonResult, primaryKind: string) {
  expect(result.status).toBe(200);
  expect(result.json.model).toMatchObject({ provider: 'backup', model: 'claude-test' });
  expect(result.json.output).toEqual({ format: 'text', text: backupAnswer });
  const attempts = result.json.decision?.attempts ?? [];
  expect(attempts.at(-1)).toMatchObject({ provider: 'backup', outcome: 'ok' });
  expect(attempts.at(-1)?.costUsd).toBeCloseTo(backupCost, 12);
  expect(attempts.filter((a) => a.provider === 'primary').every((a) => a.errorKind === primaryKind)).toBe(
    true,
  );
  expect(result.json.costUsd).toBeCloseTo(backupCost, 12);
  expect(result.ms).toBeLessThan(maxLatencyMs + overheadMs);
}

function expectFailed(result: ReasonResult, kind: string) {
  expect(result.json.error?.code).toBe(`model.${kind}`);
  expect(result.json.output).toBeUndefined();
  expect(result.ms).toBeLessThan(maxLatencyMs + overheadMs);
}

const primary = (behaviours: Behaviour[]) => upstream.script('primary', behaviours);
const rateLimited = (headers: Record<string, string>): Behaviour => ({
  type: 'json',
  status: 429,
  body: fixture('openai/error-rate-limit.json'),
  headers,
});

describe('POST /v1/reason against real wire formats', () => {
  it('answers from the primary and names it, with the attempt’s cost', async () => {
    primary([{ type: 'json', body: fixture('openai/text.json') }]);
    const result = await reason();
    expect(result.status).toBe(200);
    expect(result.json.model).toMatchObject({ provider: 'primary', model: 'gpt-test' });
    expect(result.json.output).toEqual({ format: 'text', text: '**Holiday Name:** Galaxy Day' });
    expect(result.json.finishReason).toBe('stop');
    expect(result.json.decision?.attempts).toEqual([
      expect.objectContaining({ provider: 'primary', outcome: 'ok' }),
    ]);
    expect(result.json.costUsd).toBeCloseTo(primaryCost, 12);
    expect(attemptsOn('primary')).toBe(1);
    expect(attemptsOn('backup')).toBe(0);
  });

  it('sends the trusted instructions in the system message and the untrusted ticket in the user message', async () => {
    primary([{ type: 'json', body: fixture('openai/text.json') }]);
    await reason();
    const body = upstream.arrivals('primary')[0]?.body as { messages: { role: string; content: string }[] };
    const system = body.messages
      .filter((m) => m.role === 'system')
      .map((m) => m.content)
      .join('');
    const user = body.messages
      .filter((m) => m.role === 'user')
      .map((m) => m.content)
      .join('');
    expect(system).toContain('Summarize the ticket in one sentence.');
    expect(system).not.toContain('The printer is on fire.');
    expect(user).toContain('The printer is on fire.');
  });
});

describe('faults, JSON path', () => {
  it('429 with Retry-After: never retried sooner than asked, then answered', async () => {
    primary([rateLimited({ 'retry-after': '1' }), { type: 'json', body: fixture('openai/text.json') }]);
    const result = await reason();
    expect(result.status).toBe(200);
    expect(attemptsOn('primary', 1000)).toBeLessThanOrEqual(3);
    expect(result.json.decision?.attempts[0]).toMatchObject({
      provider: 'primary',
      errorKind: 'rate_limited',
    });
    expect(result.ms).toBeLessThan(maxLatencyMs + overheadMs);
  });

  it('429 without Retry-After: bounded attempts, never a tight loop, then the backup answers', async () => {
    primary([rateLimited({})]);
    const result = await reason();
    expectAnsweredByBackup(result, 'rate_limited');
    expect(attemptsOn('primary', 50)).toBeLessThanOrEqual(3);
  });

  it('500 once then healthy: answered, the failed attempt reported', async () => {
    primary([
      { type: 'json', status: 500, body: fixture('openai/error-server.json') },
      { type: 'json', body: fixture('openai/text.json') },
    ]);
    const result = await reason();
    expect(result.status).toBe(200);
    expect(result.json.decision?.attempts[0]).toMatchObject({
      provider: 'primary',
      outcome: 'error',
      errorKind: 'server',
    });
    expect(['primary', 'backup']).toContain(result.json.model?.provider);
    expect(attemptsOn('primary', 50)).toBeLessThanOrEqual(2);
  });

  it('503 persistent: bounded attempts on the primary, then the backup answers', async () => {
    primary([{ type: 'json', status: 503, body: { error: { message: 'Service Unavailable' } } }]);
    const result = await reason();
    expectAnsweredByBackup(result, 'overloaded');
    expect(attemptsOn('primary', 50)).toBeLessThanOrEqual(3);
  });

  it('connection reset before headers: network, then the backup answers', async () => {
    primary([{ type: 'reset' }]);
    const result = await reason();
    expectAnsweredByBackup(result, 'network');
    expect(attemptsOn('primary', 50)).toBeLessThanOrEqual(3);
  });

  it('accepted but never answered: a timeout within maxLatencyMs, the silent model tried once', async () => {
    primary([{ type: 'hang' }]);
    const result = await reason();
    expect(attemptsOn('primary')).toBe(1);
    if (result.status === 200) expectAnsweredByBackup(result, 'timeout');
    else expectFailed(result, 'timeout');
  });

  it('slow first byte within the budget: answered by the primary', async () => {
    primary([{ type: 'json', delayMs: 800, body: fixture('openai/text.json') }]);
    const result = await reason();
    expect(result.status).toBe(200);
    expect(result.json.model?.provider).toBe('primary');
    expect(result.ms).toBeGreaterThanOrEqual(800);
    expect(result.ms).toBeLessThan(maxLatencyMs + overheadMs);
  });

  it('body cut mid-answer: never returned as success; network, then the backup answers', async () => {
    primary([{ type: 'cut-body', body: fixture('openai/text.json') }]);
    const result = await reason();
    expectAnsweredByBackup(result, 'network');
  });

  it('body that stalls mid-answer: never returned as success; a timeout within maxLatencyMs', async () => {
    primary([{ type: 'stall-body', body: fixture('openai/text.json') }]);
    const result = await reason();
    expect(attemptsOn('primary')).toBe(1);
    if (result.status === 200) expectAnsweredByBackup(result, 'timeout');
    else expectFailed(result, 'timeout');
  });

  it('malformed body: invalid_response, then the backup answers', async () => {
    primary([{ type: 'raw', text: '{"id":"chatcmpl-1","choices":"not-a-list"}' }]);
    const result = await reason();
    expectAnsweredByBackup(result, 'invalid_response');
    expect(attemptsOn('primary')).toBe(1);
  });

  it('body without its end (truncated JSON, connection closed cleanly): invalid_response, never success', async () => {
    primary([{ type: 'raw', text: JSON.stringify(fixture('openai/text.json')).slice(0, 120) }]);
    const result = await reason();
    expectAnsweredByBackup(result, 'invalid_response');
    expect(attemptsOn('primary')).toBe(1);
  });

  it('context length exceeded: not retried on the same model; the larger-window backup answers', async () => {
    primary([{ type: 'json', status: 400, body: fixture('openai/error-context-length.json') }]);
    const result = await reason();
    expectAnsweredByBackup(result, 'context_overflow');
    expect(attemptsOn('primary')).toBe(1);
  });

  it('content filter: not retried on the same model, the reason kept', async () => {
    primary([{ type: 'json', status: 400, body: fixture('openai/error-content-filter.json') }]);
    const result = await reason();
    expect(attemptsOn('primary')).toBe(1);
    expect(result.json.decision?.attempts?.[0] ?? result.json.error?.details?.attempts).toBeDefined();
    const attempts = (result.json.decision?.attempts ?? result.json.error?.details?.attempts) as {
      errorKind?: string;
    }[];
    expect(attempts[0]?.errorKind).toBe('content_filter');
  });

  it('bad key: auth, not retried on the same model, then the backup answers', async () => {
    primary([{ type: 'json', status: 401, body: fixture('openai/error-invalid-key.json') }]);
    const result = await reason();
    expectAnsweredByBackup(result, 'auth');
    expect(attemptsOn('primary')).toBe(1);
  });

  it('every model failing: the last error kind, with every attempt in the details', async () => {
    primary([{ type: 'json', status: 401, body: fixture('openai/error-invalid-key.json') }]);
    upstream.script('backup', [
      { type: 'json', status: 529, body: fixture('anthropic/error-overloaded.json') },
    ]);
    const result = await reason();
    expectFailed(result, 'overloaded');
    const attempts = result.json.error?.details?.attempts as { provider: string; errorKind: string }[];
    expect(attempts.map((a) => [a.provider, a.errorKind])).toEqual(
      expect.arrayContaining([
        ['primary', 'auth'],
        ['backup', 'overloaded'],
      ]),
    );
  });

  it('a primary that flaps down then up: the backup answers while it is down, the primary once it is up', async () => {
    const down: Behaviour = { type: 'json', status: 503, body: { error: { message: 'down' } } };
    primary([down, down, down, down, down, down, { type: 'json', body: fixture('openai/text.json') }]);
    const whileDown = await reason();
    expectAnsweredByBackup(whileDown, 'overloaded');
    upstream.script('primary', [{ type: 'json', body: fixture('openai/text.json') }]);
    const afterRecovery = await reason();
    expect(afterRecovery.status).toBe(200);
    expect(afterRecovery.json.model?.provider).toBe('primary');
  });
});

describe('needs the retry loop and health circuit (policy engineer’s work, not merged yet)', () => {
  it.fails('retries the primary after Retry-After when it fits the deadline, and the primary answers', async () => {
    primary([rateLimited({ 'retry-after': '1' }), { type: 'json', body: fixture('openai/text.json') }]);
    const result = await reason();
    expect(result.json.model?.provider).toBe('primary');
    expect(attemptsOn('primary', 1000)).toBe(2);
  });

  it.fails('does not fall back on a content filter: the error is propagated', async () => {
    primary([{ type: 'json', status: 400, body: fixture('openai/error-content-filter.json') }]);
    const result = await reason();
    expectFailed(result, 'content_filter');
    expect(attemptsOn('backup')).toBe(0);
  });

  it.fails('reports every attempt’s usage', async () => {
    primary([{ type: 'json', body: fixture('openai/text.json') }]);
    const result = await reason();
    expect(result.json.decision?.attempts[0]).toMatchObject({
      usage: { inputTokens: 16, outputTokens: 363 },
    });
  });

  it.fails('opens the circuit while the primary is down: later requests skip it', async () => {
    primary([{ type: 'json', status: 503, body: { error: { message: 'down' } } }]);
    for (let i = 0; i < 3; i++) await reason();
    upstream.clear();
    upstream.script('backup', [{ type: 'json', body: fixture('anthropic/text.json') }]);
    primary([{ type: 'json', status: 503, body: { error: { message: 'down' } } }]);
    await reason();
    expect(attemptsOn('primary')).toBe(0);
  });
});

// Keep the stream fixture in use here so a broken fixture fails this file too; the adapters' stream()
// over a real socket is tested in adapter-streams.test.ts.
it('has stream fixtures for every wire format', () => {
  for (const path of ['openai/text.sse.json', 'anthropic/text.sse.json', 'gemini/text.sse.json']) {
    expect(sseFixture(path).length).toBeGreaterThan(2);
  }
});
