import { type FakeUpstream, fixture, startFakeUpstream } from '../fake-upstream/fake-upstream';
import { type RunningValve, startValve } from '../helpers/start-valve';

// A Valve for the console's browser tests: a catalog of three providers on the fake upstream — one
// that answers (region `lab`), one that fails (region `flaky`, its circuit opens after three
// failures) and one whose key is not set — so each view has something real to show.

export interface ConsoleHarness {
  upstream: FakeUpstream;
  valve: RunningValve;
  /** A call to the admin API with the admin token. */
  admin(path: string, init?: { method?: string; body?: unknown }): Promise<Response>;
  /** POST /v1/reason as `key` in `region`, with `content` as untrusted context. */
  reason(key: string, region: string, content?: string): Promise<Response>;
  createKey(tenant: string): Promise<{ id: string; key: string }>;
  stop(): Promise<void>;
}

/** What the upstream answers in region `lab` (the recorded OpenAI fixture's text). */
export const upstreamAnswer = '**Holiday Name:** Galaxy Day';

const model = (provider: string, name: string, region: string) => ({
  provider,
  model: name,
  regions: [region],
  priceUsdPerMTok: { input: 1, output: 2 },
  quality: 80,
  latency: { ttftMsP50: 50, ttftMsP90: 100, outputTokensPerSec: 5000 },
  contextTokens: 32_000,
  maxOutputTokens: 4096,
  capabilities: { tools: true, json: 'native', reasoning: false, base64Data: false },
  maxPrivacy: 'confidential',
});

export async function startConsoleHarness(): Promise<ConsoleHarness> {
  const upstream = await startFakeUpstream();
  upstream.script('lab', [{ type: 'json', body: fixture('openai/text.json') }]);
  upstream.script('flaky', [{ type: 'json', status: 503, body: { error: { message: 'down' } } }]);
  const catalog = {
    providers: [
      { id: 'lab', kind: 'openai', baseUrl: `${upstream.url}/lab/v1`, apiKeyEnv: 'OPENAI_API_KEY' },
      { id: 'flaky', kind: 'openai', baseUrl: `${upstream.url}/flaky/v1`, apiKeyEnv: 'PROVIDER_FLAKY_KEY' },
      { id: 'nokey', kind: 'anthropic', baseUrl: `${upstream.url}/nokey/v1`, apiKeyEnv: 'ANTHROPIC_API_KEY' },
    ],
    models: [
      model('lab', 'gpt-lab', 'lab'),
      model('flaky', 'gpt-flaky', 'flaky'),
      model('nokey', 'claude-nokey', 'lab'),
    ],
  };
  let valve: RunningValve;
  try {
    valve = await startValve({
      catalog,
      vars: { OPENAI_API_KEY: 'test-openai', PROVIDER_FLAKY_KEY: 'test-flaky', ANTHROPIC_API_KEY: '' },
    });
  } catch (error) {
    await upstream.close();
    throw error;
  }
  const admin = (path: string, init: { method?: string; body?: unknown } = {}) =>
    fetch(`${valve.url}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        authorization: `Bearer ${valve.adminToken}`,
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
  return {
    upstream,
    valve,
    admin,
    reason: (key, region, content = 'The printer is on fire.') =>
      fetch(`${valve.url}/v1/reason`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          task: 'summarize',
          instructions: 'Summarize the ticket in one sentence.',
          context: [{ trust: 'untrusted', privacy: 'internal', content }],
          modelPolicy: { regions: [region], maxLatencyMs: 5000, maxOutputTokens: 512 },
        }),
      }),
    async createKey(tenant) {
      const res = await admin('/v1/admin/keys', {
        method: 'POST',
        body: { tenant, scopes: ['reason', 'receipts:read'] },
      });
      if (res.status !== 201)
        throw new Error(`creating a key for ${tenant}: ${res.status} ${await res.text()}`);
      return (await res.json()) as { id: string; key: string };
    },
    async stop() {
      await valve.stop();
      await upstream.close();
    },
  };
}
