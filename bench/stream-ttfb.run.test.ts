import { afterAll, beforeAll, expect, it } from 'vitest';
import { type FakeUpstream, sseFixture, startFakeUpstream } from '../test/node/fake-upstream/fake-upstream';
import { type RunningValve, startValve } from '../test/node/helpers/start-valve';
import { measureStreamTtfb } from './stream-ttfb';

// Runs the stream TTFB measurement against a local fake OpenAI upstream and the real worker in workerd:
//   npx vitest run --config bench/stream-ttfb.config.ts
// Prints the summary; it asserts only that both sides answered, not the timing target.

let upstream: FakeUpstream;
let valve: RunningValve;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  upstream.script('openai', [{ type: 'sse', frames: sseFixture('openai/text.sse.json') }]);
  valve = await startValve({
    catalog: {
      providers: [
        { id: 'openai', kind: 'openai', baseUrl: `${upstream.url}/openai/v1`, apiKeyEnv: 'OPENAI_API_KEY' },
      ],
      models: [
        {
          provider: 'openai',
          model: 'bench-model',
          regions: ['us'],
          priceUsdPerMTok: { input: 0.1, output: 0.4 },
          quality: 50,
          latency: { ttftMsP50: 100, ttftMsP90: 200, outputTokensPerSec: 100 },
          contextTokens: 128_000,
          maxOutputTokens: 4096,
          capabilities: { tools: true, json: 'native', reasoning: false, base64Data: false },
          maxPrivacy: 'restricted',
        },
      ],
    },
    vars: { OPENAI_API_KEY: 'sk-bench', DEFAULT_RATE_LIMIT_PER_MINUTE: '1000000' },
  });
}, 120_000);

afterAll(async () => {
  await valve?.stop();
  await upstream?.close();
});

it('measures the time to first byte Valve adds to a stream', async () => {
  const summary = await measureStreamTtfb({
    valveUrl: valve.url,
    valveKey: valve.key,
    upstreamUrl: `${upstream.url}/openai/v1/chat/completions`,
    pairs: Number(process.env.TTFB_PAIRS ?? 200),
  });
  console.log(JSON.stringify({ bench: 'stream-ttfb', ...summary }, null, 2));
  expect(summary.valve.medianMs).toBeGreaterThan(0);
}, 600_000);
