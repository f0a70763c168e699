import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAnthropic } from '@ai-sdk/anthropic';
import { APICallError, generateText, jsonSchema, RetryError, stepCountIs, streamText, tool } from 'ai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { messagesRequestSchema } from '../../../src/doors/anthropic/messages-request';
import { messagesToReason } from '../../../src/doors/anthropic/messages-to-reason';
import { type Door, exchangeOf, startDoor } from '../openai/door-harness';
import { runCli } from '../receipts/run-cli';

// The Vercel AI SDK with its Anthropic provider (@ai-sdk/anthropic) pointed at Valve's Anthropic door,
// changed only in baseURL and apiKey, against the real Worker and its simulator models: generateText,
// streamText, a tool loop the SDK runs itself, and errors as the SDK's own APICallError.
// Each call sets maxOutputTokens, as an application would: without it the SDK warns that it does not know the model.

let door: Door;
let valve: ReturnType<typeof createAnthropic>;
const messagesPath = '/anthropic/v1/messages';

beforeAll(async () => {
  door = await startDoor();
  valve = createAnthropic({
    baseURL: `${door.valve.url}/anthropic/v1`,
    apiKey: door.valve.key,
    fetch: door.fetch,
  });
});
afterAll(() => door?.stop());
beforeEach(() => door.reset());

/** The receipt id inside an Anthropic message id (`msg_<id>`). */
function receiptIdOf(id: string | undefined): string {
  const match = /^msg_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/.exec(id ?? '');
  expect(match, `a message id carrying a receipt id: ${id}`).not.toBeNull();
  return (match as RegExpExecArray)[1] as string;
}

/** The `valve` extension of the answer: the JSON body's, or the stream's last `message_delta`'s. */
function valveOf(answer: string): unknown {
  if (!answer.startsWith('event:') && !answer.startsWith('data:'))
    return (JSON.parse(answer) as { valve: unknown }).valve;
  const deltas = answer
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice(6)) as { type: string; valve?: unknown })
    .filter((event) => event.type === 'message_delta' && event.valve !== undefined);
  expect(deltas.length, 'a message_delta carries the valve extension').toBeGreaterThan(0);
  return deltas.at(-1)?.valve;
}

/** What an auditor does: derive the Reason request from the body the SDK sent, disclose, verify offline. */
async function expectReceiptVerifies(receiptId: string): Promise<void> {
  const exchange = await exchangeOf(door, receiptId);
  const derived = messagesToReason(messagesRequestSchema.parse(exchange.body), 'auto').request;
  const file = (name: string) => join(door.dir, `${receiptId}-${name}`);
  writeFileSync(file('request.json'), JSON.stringify(derived));
  writeFileSync(file('response.json'), JSON.stringify(valveOf(exchange.answer)));
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

const weatherSchema = jsonSchema<{ city: string }>({
  type: 'object',
  properties: { city: { type: 'string' } },
  required: ['city'],
  additionalProperties: false,
});

describe('the AI SDK’s Anthropic provider against /anthropic', () => {
  it('generateText gives the answer, its usage and a receipt that verifies', async () => {
    const result = await generateText({
      model: valve('auto'),
      maxOutputTokens: 1024,
      system: 'Answer in one sentence.',
      prompt: 'Say hello.',
    });
    expect(result.text).toMatch(/^\[simulated by sim\/answer\] A deterministic answer/);
    expect(result.finishReason).toBe('stop');
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    expect(result.usage.outputTokens).toBeGreaterThan(0);
    expect(result.response.modelId).toBe('sim/answer');
    // The provider sent Anthropic's Messages body to the door, as it would to Anthropic.
    expect(door.count(messagesPath)).toBe(1);
    await expectReceiptVerifies(receiptIdOf(result.response.id));
  });

  it('streamText streams the same text, ends with end_turn and a receipt that verifies', async () => {
    const result = streamText({
      model: valve('auto'),
      maxOutputTokens: 1024,
      prompt: 'Tell me about receipts.',
    });
    const deltas: string[] = [];
    for await (const delta of result.textStream) deltas.push(delta);
    const streamed = deltas.join('');
    expect(deltas.length).toBeGreaterThan(1);
    expect(streamed).toMatch(/^\[simulated by sim\/answer\]/);
    expect(await result.text).toBe(streamed);
    expect(await result.finishReason).toBe('stop');
    expect((await result.usage).outputTokens).toBeGreaterThan(0);
    const sent = door.exchanges[0]?.body as { stream?: boolean };
    expect(sent.stream).toBe(true);
    await expectReceiptVerifies(receiptIdOf((await result.response).id));
  });

  it('runs a tool loop: the model calls the tool, the SDK runs it and sends the result, the model answers', async () => {
    const ran: string[] = [];
    const result = await generateText({
      model: valve('auto'),
      maxOutputTokens: 1024,
      prompt: 'Use get_weather: what is the weather in Oslo?',
      tools: {
        get_weather: tool({
          description: 'The weather in a city.',
          inputSchema: weatherSchema,
          execute: async ({ city }) => {
            ran.push(city);
            return `Sunny in ${city}, 21 C`;
          },
        }),
      },
      stopWhen: stepCountIs(3),
    });
    expect(ran).toHaveLength(1);
    expect(result.steps).toHaveLength(2);
    expect(result.steps[0]?.finishReason).toBe('tool-calls');
    expect(result.steps[0]?.toolCalls.map((call) => call.toolName)).toEqual(['get_weather']);
    expect(result.finishReason).toBe('stop');
    expect(result.text.length).toBeGreaterThan(0);
    // The second request carried the call back as a tool_use block and its result as a tool_result.
    const second = door.exchanges[1]?.body as {
      messages: { role: string; content: { type: string; id?: string; tool_use_id?: string }[] }[];
    };
    const blocks = second.messages.flatMap((message) => message.content);
    const use = blocks.find((block) => block.type === 'tool_use');
    expect(blocks.find((block) => block.type === 'tool_result')?.tool_use_id).toBe(use?.id);
    await expectReceiptVerifies(receiptIdOf(result.response.id));
  });

  it('streams a forced tool call the SDK assembles with its parsed input', async () => {
    const result = streamText({
      model: valve('auto'),
      maxOutputTokens: 1024,
      prompt: 'Weather?',
      tools: { get_weather: tool({ description: 'The weather in a city.', inputSchema: weatherSchema }) },
      toolChoice: 'required',
    });
    const calls = await result.toolCalls;
    expect(calls).toHaveLength(1);
    expect(calls[0]?.toolName).toBe('get_weather');
    expect(typeof (calls[0]?.input as { city?: unknown } | undefined)?.city).toBe('string');
    expect(await result.finishReason).toBe('tool-calls');
  });

  it('surfaces a stream cut after content as an error, never as a complete answer', async () => {
    const errors: unknown[] = [];
    const result = streamText({
      model: valve('sim/cut'),
      maxOutputTokens: 1024,
      prompt: 'Tell me a long story.',
      onError: ({ error }) => {
        errors.push(error);
      },
    });
    const parts: string[] = [];
    for await (const part of result.fullStream) parts.push(part.type);
    expect(parts).toContain('text-delta');
    expect(parts).toContain('error');
    expect(errors).toHaveLength(1);
    expect(await result.finishReason).not.toBe('stop');
  });

  it('raises an unknown model as a 404 APICallError, not retried', async () => {
    const failure = await generateText({
      model: valve('nobody/nothing'),
      maxOutputTokens: 1024,
      prompt: 'Hi',
      maxRetries: 2,
    }).catch((error: unknown) => error);
    expect(APICallError.isInstance(failure)).toBe(true);
    expect((failure as APICallError).statusCode).toBe(404);
    expect((failure as APICallError).isRetryable).toBe(false);
    expect(door.count(messagesPath)).toBe(1);
  });

  it('raises an overloaded model as a 529 APICallError after the SDK’s own retries', async () => {
    const failure = await generateText({
      model: valve('sim/busy'),
      maxOutputTokens: 1024,
      prompt: 'Hi',
      maxRetries: 1,
    }).catch((error: unknown) => error);
    const errors = RetryError.isInstance(failure) ? failure.errors : [failure];
    const statuses = errors.map((error) => (APICallError.isInstance(error) ? error.statusCode : undefined));
    expect(statuses[0]).toBe(529);
    expect(statuses).toHaveLength(2);
    expect(door.count(messagesPath)).toBe(2);
  });
});
