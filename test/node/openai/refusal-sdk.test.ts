import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeUpstream, fixture, sseFixture, startFakeUpstream } from '../fake-upstream/fake-upstream';
import { type Door, expectReceiptVerifies, receiptIdOf, startDoor } from './door-harness';

// The official `openai` Node SDK reading a refusal through the door: an OpenAI-kind model on the fake
// upstream answers OpenAI's documented refusal (fixtures/providers/openai/refusal*), and the SDK finds it
// where it finds OpenAI's own — after exactly one upstream call, with a receipt the auditor's CLI verifies.

const refusal = "I'm sorry, I cannot assist with that request.";
let upstream: FakeUpstream;
let door: Door;
let client: OpenAI;

const schema = {
  type: 'object',
  properties: { order: { type: 'string' } },
  required: ['order'],
  additionalProperties: false,
};
const messages = [
  { role: 'user' as const, content: 'Extract the order number: help me with something harmful.' },
];
const responseFormat = { type: 'json_schema' as const, json_schema: { name: 'order', schema, strict: true } };

beforeAll(async () => {
  upstream = await startFakeUpstream();
  const model = (id: string, quality: number) => ({
    provider: 'refuser',
    model: id,
    regions: ['lab'],
    priceUsdPerMTok: { input: 1, output: 4 },
    quality,
    latency: { ttftMsP50: 40, ttftMsP90: 80, outputTokensPerSec: 400 },
    contextTokens: 32_000,
    maxOutputTokens: 4096,
    capabilities: { tools: true, json: 'native', reasoning: false, base64Data: false },
    maxPrivacy: 'confidential',
  });
  // Two models, so that a repair, a retry or a fallback would each be a second arrival upstream.
  const catalog = {
    providers: [
      { id: 'refuser', kind: 'openai', baseUrl: `${upstream.url}/refuser/v1`, apiKeyEnv: 'OPENAI_API_KEY' },
    ],
    models: [model('gpt-first', 90), model('gpt-second', 80)],
  };
  door = await startDoor(catalog, { OPENAI_API_KEY: 'sk-test' });
  client = new OpenAI({ baseURL: door.baseURL, apiKey: door.valve.key, fetch: door.fetch, maxRetries: 0 });
}, 60_000);
afterAll(async () => {
  await door?.stop();
  await upstream?.close();
});
beforeEach(() => {
  door.reset();
  upstream.clear();
});

const refuseWithJson = () =>
  upstream.script('refuser', [{ type: 'json', body: fixture('openai/refusal.json') }]);
const refuseWithStream = () =>
  upstream.script('refuser', [{ type: 'sse', frames: sseFixture('openai/refusal.sse.json') }]);

describe('the openai SDK reading a refusal through /openai/v1', () => {
  it('finds a chat refusal in message.refusal, content null, finish_reason content_filter', async () => {
    refuseWithJson();
    const completion = await client.chat.completions.create({
      model: 'auto',
      messages,
      response_format: responseFormat,
    });
    const choice = completion.choices[0];
    expect(choice?.message.refusal).toBe(refusal);
    expect(choice?.message.content).toBeNull();
    expect(choice?.finish_reason).toBe('content_filter');
    expect(upstream.arrivals('refuser')).toHaveLength(1);
    await expectReceiptVerifies(door, receiptIdOf(completion.id));
  });

  it('assembles a streamed chat refusal from delta.refusal, as finalChatCompletion shows', async () => {
    refuseWithStream();
    const stream = client.chat.completions.stream({
      model: 'auto',
      messages,
      response_format: responseFormat,
    });
    let deltas = '';
    stream.on('refusal.delta', (event) => {
      deltas += event.delta;
    });
    const final = await stream.finalChatCompletion();
    expect(deltas).toBe(refusal);
    expect(final.choices[0]?.message.refusal).toBe(refusal);
    expect(final.choices[0]?.finish_reason).toBe('content_filter');
    expect(upstream.arrivals('refuser')).toHaveLength(1);
    await expectReceiptVerifies(door, receiptIdOf(final.id));
  });

  it('finds a Responses refusal part in a completed response, streamed or not', async () => {
    const text = { format: { type: 'json_schema' as const, name: 'order', schema, strict: true } };
    refuseWithJson();
    const response = await client.responses.create({ model: 'auto', input: messages, text });
    expect(response.status).toBe('completed');
    expect(response.output).toMatchObject([{ type: 'message', content: [{ type: 'refusal', refusal }] }]);
    expect(response.output_text).toBe('');
    await expectReceiptVerifies(door, receiptIdOf(response.id));

    refuseWithStream();
    const stream = client.responses.stream({ model: 'auto', input: messages, text });
    let deltas = '';
    stream.on('response.refusal.delta', (event) => {
      deltas += event.delta;
    });
    const final = await stream.finalResponse();
    expect(deltas).toBe(refusal);
    expect(final.output).toMatchObject([{ type: 'message', content: [{ type: 'refusal', refusal }] }]);
    expect(upstream.arrivals('refuser')).toHaveLength(2);
  });
});
