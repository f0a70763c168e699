import { bench, describe } from 'vitest';
import type { Catalog } from '../../src/policy/catalog';
import { openaiAdapter } from '../../src/providers/openai/openai-adapter';
import { prepareReason, type ReasonDeps } from '../../src/reason/prepare-reason';
import { streamReason } from '../../src/reason/stream-reason';
import { frameEvent } from '../../src/streaming/frame-event';
import textSse from '../../test/fixtures/providers/openai/text.sse.json';

// The streaming layer's own share of the time to first byte, in process: from a recorded OpenAI SSE
// body (served by a fake fetch) to the first framed SSE event through render → plan → attempt loop →
// adapter → assembler → frame, beside the baseline of the adapter alone reaching its first content
// part from the same body. The difference is what Valve's pipeline adds before the first byte,
// without network, D1 or Durable Objects (bench/stream-ttfb.ts measures those end to end).

const body = textSse.events
  .map((e) => `data: ${typeof e.data === 'string' ? e.data : JSON.stringify(e.data)}\n\n`)
  .join('');
const fakeFetch = (async () =>
  new Response(body, { headers: { 'content-type': 'text/event-stream' } })) as typeof fetch;

const catalog: Catalog = {
  providers: [{ id: 'openai', kind: 'openai', apiKeyEnv: 'OPENAI_API_KEY' }],
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
};

const deps = (): ReasonDeps => ({
  catalog,
  notConfigured: () => undefined,
  secret: () => 'sk-bench',
  fetch: fakeFetch,
  now: () => performance.now(),
  startedAt: performance.now(),
  randomHex: (bytes) => 'ab'.repeat(bytes),
  sleep: async () => undefined,
  random: () => 0.5,
});

const request = { task: 'greet', instructions: 'Say hello.' };

describe('time to the first streamed byte, in process', () => {
  bench('baseline: the adapter alone, to its first content part', async () => {
    const parts = openaiAdapter.stream(
      { messages: [{ role: 'user', content: [{ type: 'text', text: 'Say hello.' }] }] },
      { model: 'bench-model', signal: new AbortController().signal, fetch: fakeFetch, apiKey: 'sk-bench' },
    );
    for await (const part of parts) if (part.type === 'delta') break;
  });

  bench('Valve: prepare, loop, adapter, assembler, to the first framed SSE event', async () => {
    const d = deps();
    const abort = new AbortController();
    const prepared = await prepareReason(request, d);
    const events = streamReason(prepared, d, { requestId: 'bench', signal: abort.signal });
    for await (const event of events) {
      frameEvent(event, 'sse');
      break;
    }
    abort.abort();
  });
});
