import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { messagesRequestSchema } from '../../../src/doors/anthropic/messages-request';
import { messagesToReason } from '../../../src/doors/anthropic/messages-to-reason';
import { base64Of, pdfOf, pngOf } from '../../helpers/media-samples';
import { type Door, exchangeOf, startDoor } from '../openai/door-harness';
import { runCli } from '../receipts/run-cli';

// The official `@anthropic-ai/sdk` TypeScript client pointed at Valve with nothing changed but
// baseURL (ANTHROPIC_BASE_URL=<valve>/anthropic) and apiKey, against the real Worker and its
// simulator models: create, stream, a tool loop, count_tokens, models, media, and errors raised as the
// SDK's own classes with the retries Anthropic's statuses call for.

let door: Door;
let client: Anthropic;
const messagesPath = '/anthropic/v1/messages';

beforeAll(async () => {
  door = await startDoor();
  client = new Anthropic({
    baseURL: `${door.valve.url}/anthropic`,
    apiKey: door.valve.key,
    fetch: door.fetch,
  });
});
afterAll(() => door?.stop());
beforeEach(() => door.reset());

const receiptIdOf = (id: string) => {
  const match = /^msg_([0-9a-f-]{36})$/.exec(id);
  expect(match, `a message id carrying a receipt id: ${id}`).not.toBeNull();
  return (match as RegExpExecArray)[1] as string;
};

/** What an auditor does: derive the Reason request from the body sent, disclose, verify offline. */
async function expectReceiptVerifies(receiptId: string, valve: unknown): Promise<void> {
  const exchange = await exchangeOf(door, receiptId);
  const derived = messagesToReason(messagesRequestSchema.parse(exchange.body), 'auto').request;
  const file = (name: string) => join(door.dir, `${receiptId}-${name}`);
  writeFileSync(file('request.json'), JSON.stringify(derived));
  writeFileSync(file('response.json'), JSON.stringify(valve));
  const disclosed = await runCli([
    'disclose',
    '--request',
    file('request.json'),
    '--response',
    file('response.json'),
    '--out',
    file('bundle.json'),
  ]);
  expect(disclosed.code, disclosed.stderr).toBe(0);
  const verified = await runCli([
    'verify',
    file('bundle.json'),
    '--trust-root',
    join(door.dir, 'root.json'),
    '--no-state',
  ]);
  expect(verified.code, verified.stdout).toBe(0);
  expect(verified.stdout).toContain('VERIFIED');
}

const weather = {
  name: 'get_weather',
  description: 'The weather in a city.',
  input_schema: { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] },
};

describe('the @anthropic-ai/sdk client against /anthropic', () => {
  it('creates a message whose text, receipt id and receipt the client can check', async () => {
    const message = await client.messages.create({
      model: 'auto',
      // The SDK itself refuses a non-streaming call this large could take (Claude Code streams its 128000).
      max_tokens: 1024,
      system: 'Answer in one sentence.',
      messages: [{ role: 'user', content: 'Say hello.' }],
    });
    expect(message.type).toBe('message');
    expect(message.role).toBe('assistant');
    expect(message.stop_reason).toBe('end_turn');
    const text = message.content[0];
    expect(text?.type).toBe('text');
    expect(text?.type === 'text' && text.text.length).toBeGreaterThan(0);
    expect(message.usage.output_tokens).toBeGreaterThan(0);
    const receiptId = receiptIdOf(message.id);
    await expectReceiptVerifies(receiptId, (message as unknown as { valve: unknown }).valve);
  });

  it('streams with the SDK’s helpers: text events, and a final message equal to the deltas', async () => {
    const stream = client.messages.stream({
      model: 'auto',
      max_tokens: 1024,
      messages: [{ role: 'user', content: 'Tell me about receipts.' }],
    });
    let streamed = '';
    stream.on('text', (delta) => {
      streamed += delta;
    });
    const final = await stream.finalMessage();
    expect(streamed.length).toBeGreaterThan(0);
    expect(final.content).toEqual([{ type: 'text', text: streamed }]);
    expect(final.stop_reason).toBe('end_turn');
    expect(final.usage.output_tokens).toBeGreaterThan(0);
    receiptIdOf(final.id);
  });

  it('runs a tool loop of three turns: a forced call, its result, and the text answer', async () => {
    const first = await client.messages.create({
      model: 'auto',
      max_tokens: 1024,
      messages: [{ role: 'user', content: 'What is the weather in Oslo?' }],
      tools: [weather],
      tool_choice: { type: 'tool', name: 'get_weather' },
    });
    expect(first.stop_reason).toBe('tool_use');
    const use = first.content.find((block) => block.type === 'tool_use');
    expect(use?.type === 'tool_use' && use.name).toBe('get_weather');
    if (use?.type !== 'tool_use') throw new Error('no tool_use block');
    const second = await client.messages.create({
      model: 'auto',
      max_tokens: 1024,
      messages: [
        { role: 'user', content: 'What is the weather in Oslo?' },
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'Sunny, 21 C' }] },
      ],
      tools: [weather],
    });
    expect(second.stop_reason).toBe('end_turn');
    expect(second.content[0]?.type).toBe('text');
  });

  it('streams a tool call the SDK assembles into a tool_use block with its parsed input', async () => {
    const final = await client.messages
      .stream({
        model: 'auto',
        max_tokens: 1024,
        messages: [{ role: 'user', content: 'Weather?' }],
        tools: [weather],
        tool_choice: { type: 'any' },
      })
      .finalMessage();
    const use = final.content.find((block) => block.type === 'tool_use');
    expect(use?.type === 'tool_use' && typeof (use.input as { city?: unknown }).city).toBe('string');
    expect(final.stop_reason).toBe('tool_use');
  });

  it('counts tokens and lists models', async () => {
    const count = await client.messages.countTokens({
      model: 'auto',
      messages: [{ role: 'user', content: 'How many tokens is this?' }],
    });
    expect(count.input_tokens).toBeGreaterThan(0);
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids).toEqual(expect.arrayContaining(['auto', 'sim/answer']));
    const one = await client.models.retrieve('sim/answer');
    expect(one.id).toBe('sim/answer');
  });

  it('sends an image and a PDF', async () => {
    const media = await startDoor({
      providers: [{ id: 'sim', kind: 'sim' }],
      models: [
        {
          provider: 'sim',
          model: 'eyes',
          regions: ['lab'],
          priceUsdPerMTok: { input: 1, output: 4 },
          quality: 50,
          latency: { ttftMsP50: 40, ttftMsP90: 80, outputTokensPerSec: 400 },
          contextTokens: 32_000,
          maxOutputTokens: 4096,
          capabilities: { tools: true, json: 'native', reasoning: false, base64Data: true },
          inputModalities: ['text', 'image', 'pdf'],
          maxPrivacy: 'confidential',
        },
      ],
    });
    try {
      const reader = new Anthropic({ baseURL: `${media.valve.url}/anthropic`, apiKey: media.valve.key });
      const message = await reader.messages.create({
        model: 'auto',
        max_tokens: 256,
        messages: [
          {
            role: 'user',
            content: [
              {
                type: 'image',
                source: { type: 'base64', media_type: 'image/png', data: base64Of(pngOf(4, 4)) },
              },
              {
                type: 'document',
                source: { type: 'base64', media_type: 'application/pdf', data: base64Of(pdfOf(1)) },
              },
              { type: 'text', text: 'Describe both.' },
            ],
          },
        ],
      });
      expect(message.content[0]?.type).toBe('text');
      const valve = (message as unknown as { valve: { decision: { media?: { type: string }[] } } }).valve;
      expect(valve.decision.media?.map((m) => m.type)).toEqual(['image', 'file']);
    } finally {
      await media.stop();
    }
  });
});

describe('errors through the @anthropic-ai/sdk client', () => {
  it('raises a bad key as AuthenticationError, without a retry', async () => {
    const bad = new Anthropic({
      baseURL: `${door.valve.url}/anthropic`,
      apiKey: 'vk_wrong',
      fetch: door.fetch,
    });
    await expect(
      bad.messages.create({ model: 'auto', max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] }),
    ).rejects.toBeInstanceOf(Anthropic.AuthenticationError);
    expect(door.count(messagesPath)).toBe(1);
  });

  it('raises an unknown model as NotFoundError and a bad field as BadRequestError', async () => {
    await expect(
      client.messages.create({
        model: 'claude-nope',
        max_tokens: 16,
        messages: [{ role: 'user', content: 'Hi' }],
      }),
    ).rejects.toBeInstanceOf(Anthropic.NotFoundError);
    await expect(
      client.messages.create({
        model: 'auto',
        max_tokens: 16,
        messages: [{ role: 'user', content: 'Hi' }],
        tools: [{ type: 'web_search_20250305', name: 'web_search' }],
      }),
    ).rejects.toBeInstanceOf(Anthropic.BadRequestError);
  });

  it('raises an overloaded model as OverloadedError (529) after the SDK’s own retries', async () => {
    const retrying = new Anthropic({
      baseURL: `${door.valve.url}/anthropic`,
      apiKey: door.valve.key,
      fetch: door.fetch,
      maxRetries: 1,
    });
    const error = await retrying.messages
      .create({ model: 'sim/busy', max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect((error as InstanceType<typeof Anthropic.APIError>).status).toBe(529);
    expect(door.count(messagesPath)).toBe(2);
  });

  it('raises a stream cut after its first text as an error, never a complete message', async () => {
    const stream = client.messages.stream({
      model: 'sim/cut',
      max_tokens: 256,
      messages: [{ role: 'user', content: 'Tell me a long story.' }],
    });
    await expect(stream.finalMessage()).rejects.toBeInstanceOf(Anthropic.APIError);
  });
});
