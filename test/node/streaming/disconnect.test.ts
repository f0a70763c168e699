import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RunningValve, startValve } from '../helpers/start-valve';

// Over real sockets: the real worker (workerd) streams from an OpenAI-compatible upstream that paces
// out a long answer; when the client goes away, workerd cancels the response body, Valve aborts the
// upstream request, and the upstream sees its connection close long before the answer would end.

const upstreamState = { requests: 0, sent: 0, closedAt: 0 };
let upstream: Server;
let upstreamUrl = '';
let valve: RunningValve;

function chunk(content: string): string {
  return `data: ${JSON.stringify({ id: 'c', model: 'slow', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;
}

beforeAll(async () => {
  upstream = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      upstreamState.requests++;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const timer = setInterval(() => {
        upstreamState.sent++;
        res.write(chunk(`word${upstreamState.sent} `));
        if (upstreamState.sent >= 500) {
          clearInterval(timer);
          res.end('data: [DONE]\n\n');
        }
      }, 20);
      res.on('close', () => {
        clearInterval(timer);
        upstreamState.closedAt = performance.now();
      });
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  valve = await startValve({
    catalog: {
      providers: [{ id: 'slow', kind: 'openai', baseUrl: `${upstreamUrl}/v1`, apiKeyEnv: 'OPENAI_API_KEY' }],
      models: [
        {
          provider: 'slow',
          model: 'slow-model',
          regions: ['us'],
          priceUsdPerMTok: { input: 0.1, output: 0.4 },
          quality: 50,
          latency: { ttftMsP50: 50, ttftMsP90: 100, outputTokensPerSec: 5000 },
          contextTokens: 128_000,
          maxOutputTokens: 4096,
          capabilities: { tools: true, json: 'native', reasoning: false, base64Data: false },
          maxPrivacy: 'restricted',
        },
      ],
    },
    vars: { OPENAI_API_KEY: 'sk-test' },
  });
});

afterAll(async () => {
  await valve?.stop();
  upstream?.closeAllConnections();
  await new Promise((resolve) => upstream?.close(resolve));
});

it('aborts the upstream request when the client disconnects mid-stream', async () => {
  const client = new AbortController();
  const res = await fetch(`${valve.url}/v1/reason`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${valve.key}`,
      'content-type': 'application/json',
      accept: 'text/event-stream',
    },
    body: JSON.stringify({ task: 't', instructions: 'Write a long answer.' }),
    signal: client.signal,
  });
  expect(res.status).toBe(200);
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  let text = '';
  while (!text.includes('word3')) text += new TextDecoder().decode((await reader.read()).value);
  expect(text).toContain('event: response.created');
  const leftAt = performance.now();
  client.abort();
  for (let i = 0; i < 100 && upstreamState.closedAt === 0; i++) await new Promise((r) => setTimeout(r, 50));
  expect(upstreamState.requests).toBe(1);
  expect(upstreamState.closedAt).toBeGreaterThan(0);
  expect(upstreamState.closedAt - leftAt).toBeLessThan(3000);
  expect(upstreamState.sent).toBeLessThan(400);
});
