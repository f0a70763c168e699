#!/usr/bin/env node
// A fake OpenAI-compatible upstream for the bench, run as its own process so that its memory is its own
// and it does not share an event loop with the load generator. `POST …/chat/completions` answers one
// fixed Chat Completions body, or fixed SSE frames when the request asks `"stream": true`; anything
// else is 404. `--latency-ms=N` waits N ms before answering (before the first byte when streaming).
// It listens on 127.0.0.1 only and prints `{"url": …}` on one line once it does.
import { createServer } from 'node:http';

const latencyMs = Number(
  /^--latency-ms=(\d+)$/.exec(process.argv.find((a) => a.startsWith('--latency-ms=')) ?? '')?.[1] ?? 0,
);

const answer = JSON.stringify({
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  created: 1770933883,
  model: 'gpt-bench',
  choices: [
    {
      index: 0,
      message: {
        role: 'assistant',
        content: 'The printer is on fire; the customer asks for a refund.',
        refusal: null,
      },
      logprobs: null,
      finish_reason: 'stop',
    },
  ],
  usage: { prompt_tokens: 42, completion_tokens: 14, total_tokens: 56 },
  system_fingerprint: 'fp_bench',
});

const chunk = (delta, finish = null, usage = undefined) =>
  `data: ${JSON.stringify({
    id: 'chatcmpl-bench',
    object: 'chat.completion.chunk',
    created: 1770933883,
    model: 'gpt-bench',
    choices: usage ? [] : [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    ...(usage && { usage }),
  })}\n\n`;

const frames = [
  chunk({ role: 'assistant', content: '' }),
  ...['The printer ', 'is on fire; ', 'the customer ', 'asks for ', 'a refund.'].map((text) =>
    chunk({ content: text }),
  ),
  chunk({}, 'stop'),
  chunk(undefined, null, { prompt_tokens: 42, completion_tokens: 14, total_tokens: 56 }),
  'data: [DONE]\n\n',
];
const sse = frames.join('');

const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (data) => chunks.push(data));
  req.on('end', async () => {
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"error":{"message":"not found","type":"invalid_request_error"}}');
      return;
    }
    // A cheap look instead of JSON.parse: the upstream's own cost should stay small and fixed.
    const stream = /"stream"\s*:\s*true/.test(Buffer.concat(chunks).toString('utf8'));
    if (latencyMs > 0) await wait(latencyMs);
    if (stream) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.end(sse);
    } else {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer) });
      res.end(answer);
    }
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
process.on('disconnect', () => process.exit(0));
