import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSse } from '../../helpers/check-stream-order';
import { type FakeUpstream, fixture, sseFixture, startFakeUpstream } from '../fake-upstream/fake-upstream';
import { type RunningValve, startValve } from '../helpers/start-valve';

// A provider that answers a redirect: the real worker's real fetch, a fake provider that answers
// 307 or 302, and a second host (another origin) that records whatever reaches it and answers as a
// model would. Nothing may reach that host — no key header, no prompt — and its answer is never
// signed as the model's: the redirect is a provider failure, and another model answers if the
// policy allows, or the caller gets an error that says what happened.

const formats = ['openai', 'anthropic', 'gemini'] as const;
type Format = (typeof formats)[number];

// No key spells a word the error message must keep: the scrubber redacts any 8 letters of a key.
const keys: Record<Format, string> = {
  openai: 'sk-proj-Q7vT2mXkOpenAI0123456789abcdef',
  anthropic: 'sk-ant-api03-Q7vT2mXkAnthropic0123456789',
  gemini: 'AIzaSyQ7vT2mXkGemini0123456789abcdefgh',
};
const keyEnv: Record<Format, string> = {
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
  gemini: 'GEMINI_API_KEY',
};
const secretContent = 'Account 4417-REDIRECT-PROMPT belongs to Jane Roe.';

/** Where each format's call goes under its base URL, JSON and stream. */
function callPath(format: Format, stream: boolean): string {
  if (format === 'openai') return '/v1/chat/completions';
  if (format === 'anthropic') return '/v1/messages';
  return `/v1beta/models/model-test:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`;
}

const cases = formats.flatMap((format) =>
  (
    [
      [307, 'json'],
      [302, 'json'],
      [307, 'stream'],
      [307, 'pinned'],
      [307, 'door'],
    ] as const
  ).map(([status, path]) => ({ format, status, path, name: `${format}-${status}-${path}` })),
);
type Case = (typeof cases)[number];

const model = (provider: string, name: string, region: string, quality: number) => ({
  provider,
  model: name,
  regions: [region],
  priceUsdPerMTok: { input: 1, output: 2 },
  quality,
  latency: { ttftMsP50: 50, ttftMsP90: 100, outputTokensPerSec: 5000 },
  contextTokens: 32_000,
  maxOutputTokens: 4096,
  capabilities: { tools: true, json: 'native', reasoning: false, base64Data: false },
  maxPrivacy: 'confidential',
});

let upstream: FakeUpstream;
let target: FakeUpstream;
let valve: RunningValve;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  target = await startFakeUpstream();
  // One region per case, so that no case's failures open a circuit another case depends on; in each,
  // the redirecting provider ranks first and a simulator backs it up.
  const providers: unknown[] = [{ id: 'sim', kind: 'sim' }];
  const models: unknown[] = [];
  for (const c of cases) {
    providers.push({
      id: c.name,
      kind: c.format,
      baseUrl: `${upstream.url}/${c.name}${c.format === 'gemini' ? '/v1beta' : '/v1'}`,
      apiKeyEnv: keyEnv[c.format],
    });
    models.push(model(c.name, 'model-test', c.name, 90), {
      ...model('sim', `backup-${c.name}`, c.name, 10),
      simulate: {},
    });
  }
  valve = await startValve({
    catalog: { providers, models },
    vars: Object.fromEntries(formats.map((format) => [keyEnv[format], keys[format]])),
  });
}, 60_000);
afterAll(async () => {
  await valve?.stop();
  await upstream?.close();
  await target?.close();
});

function scriptRedirect(c: Case): string {
  const stream = c.path === 'stream';
  const location = `${target.url}/${c.name}-target${callPath(c.format, stream)}`;
  upstream.script(c.name, [{ type: 'redirect', status: c.status, location }]);
  // The target answers as the provider would: were it followed, its answer would look like the model's.
  target.script(`${c.name}-target`, [
    stream
      ? { type: 'sse', frames: sseFixture(`${c.format}/text.sse.json`) }
      : { type: 'json', body: fixture(`${c.format}/text.json`) },
  ]);
  return location;
}

async function call(c: Case): Promise<{ status: number; text: string }> {
  const headers = { authorization: `Bearer ${valve.key}`, 'content-type': 'application/json' };
  if (c.path === 'door') {
    const res = await fetch(`${valve.url}/openai/v1/chat/completions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        model: `${c.name}/model-test`,
        messages: [
          { role: 'system', content: 'Summarize the account note.' },
          { role: 'user', content: secretContent },
        ],
      }),
    });
    return { status: res.status, text: await res.text() };
  }
  const res = await fetch(`${valve.url}/v1/reason`, {
    method: 'POST',
    headers: { ...headers, ...(c.path === 'stream' && { accept: 'text/event-stream' }) },
    body: JSON.stringify({
      task: 'summarize',
      instructions: 'Summarize the account note.',
      context: [{ trust: 'untrusted', privacy: 'internal', content: secretContent }],
      modelPolicy: { regions: [c.name], ...(c.path === 'pinned' && { allowFallback: false }) },
    }),
  });
  return { status: res.status, text: await res.text() };
}

/** What reached the redirect target: nothing at all, and certainly no key and no prompt. */
function expectNothingReachedTarget(c: Case) {
  const arrived = target.arrivals(`${c.name}-target`);
  for (const arrival of arrived) {
    const wire = `${JSON.stringify(arrival.headers)} ${JSON.stringify(arrival.body ?? '')}`;
    for (const key of Object.values(keys))
      expect(wire, 'a key reached the redirect target').not.toContain(key);
    for (const name of ['authorization', 'x-api-key', 'x-goog-api-key'])
      expect(arrival.headers[name], `${name} reached the redirect target`).toBeUndefined();
    expect(wire, 'the prompt reached the redirect target').not.toContain('4417-REDIRECT-PROMPT');
  }
  expect(arrived).toHaveLength(0);
  // The call did reach the redirecting provider: the test is about its redirect, not a skipped model.
  expect(upstream.arrivals(c.name)).toHaveLength(1);
}

/** The error a caller sees says the provider redirected and Valve does not follow, not where to. */
function expectRedirectMessage(message: string | undefined, c: Case, location: string) {
  expect(message).toMatch(new RegExp(`redirect.*${c.status}|${c.status}.*redirect`, 'i'));
  expect(message).toMatch(/does not follow redirects/i);
  expect(message).not.toContain(target.url);
  expect(message).not.toContain(new URL(location).host);
}

describe.each(formats)('%s provider that answers a redirect', (format) => {
  const of = (status: number, path: string) =>
    cases.find((c) => c.format === format && c.status === status && c.path === path) as Case;

  for (const status of [307, 302] as const) {
    it(`${status} on a JSON call: nothing reaches the target; the backup answers; the trace names the redirect`, async () => {
      const c = of(status, 'json');
      const location = scriptRedirect(c);
      const { status: httpStatus, text } = await call(c);
      expectNothingReachedTarget(c);
      expect(httpStatus, text).toBe(200);
      const json = JSON.parse(text) as {
        model: { provider: string };
        decision: {
          attempts: {
            provider: string;
            outcome: string;
            errorKind?: string;
            costUsd: number;
            usage?: unknown;
          }[];
        };
      };
      expect(json.model.provider).toBe('sim');
      const attempt = json.decision.attempts.find((a) => a.provider === c.name);
      expect(attempt).toMatchObject({ outcome: 'error', errorKind: 'invalid_response', costUsd: 0 });
      // A redirect ran no model: nothing was used, and nothing is billed.
      expect(attempt?.usage).toEqual({
        inputTokens: 0,
        outputTokens: 0,
        reasoningTokens: 0,
        cacheReadTokens: 0,
      });
      expect(text).not.toContain(location);
      expect(text).not.toContain(target.url);
    });
  }

  it('307 on a stream: nothing reaches the target; the backup streams the answer', async () => {
    const c = of(307, 'stream');
    const location = scriptRedirect(c);
    const { status, text } = await call(c);
    expectNothingReachedTarget(c);
    expect(status).toBe(200);
    const events = parseSse(text);
    const completed = events.find((e) => e.type === 'response.completed');
    expect(completed, text).toBeDefined();
    expect(JSON.stringify(completed)).toContain('"provider":"sim"');
    expect(text).not.toContain(location);
  });

  it('307 with fallback off: the caller gets a provider failure that says it was a redirect', async () => {
    const c = of(307, 'pinned');
    const location = scriptRedirect(c);
    const { status, text } = await call(c);
    expectNothingReachedTarget(c);
    expect(status).toBeGreaterThanOrEqual(400);
    const json = JSON.parse(text) as { error: { code: string; message: string } };
    expect(json.error.code).toBe('model.invalid_response');
    expectRedirectMessage(json.error.message, c, location);
    expect(text).not.toContain(target.url);
  });

  it('307 through the OpenAI door, model pinned: an error that says it was a redirect', async () => {
    const c = of(307, 'door');
    const location = scriptRedirect(c);
    const { status, text } = await call(c);
    expectNothingReachedTarget(c);
    expect(status).toBeGreaterThanOrEqual(400);
    const json = JSON.parse(text) as { error: { message: string } };
    expectRedirectMessage(json.error.message, c, location);
    expect(text).not.toContain(target.url);
  });
});
