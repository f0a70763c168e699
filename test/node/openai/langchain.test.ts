import type { AIMessageChunk } from '@langchain/core/messages';
import { ChatOpenAI } from '@langchain/openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Door, exchangeOf, expectReceiptVerifies, receiptIdOf, startDoor } from './door-harness';

// LangChain's ChatOpenAI pointed at Valve: only the base URL and the key change.

let door: Door;
const chat = (model = 'auto', modelKwargs?: Record<string, unknown>) =>
  new ChatOpenAI({
    model,
    apiKey: door.valve.key,
    configuration: { baseURL: door.baseURL, fetch: door.fetch },
    maxRetries: 0,
    ...(modelKwargs && { modelKwargs }),
  });

beforeAll(async () => {
  door = await startDoor();
});
afterAll(() => door?.stop());
beforeEach(() => door.reset());

describe('LangChain ChatOpenAI against /openai/v1', () => {
  it('invoke gives the answer, a readable receipt id and a receipt that verifies', async () => {
    const message = await chat().invoke([
      ['system', 'Answer in one sentence.'],
      ['human', 'Say hello.'],
    ]);
    expect(message.content).toMatch(/^\[simulated by sim\/answer\] A deterministic answer/);
    expect(message.usage_metadata?.output_tokens).toBeGreaterThan(0);
    await expectReceiptVerifies(door, receiptIdOf(message.id));
  });

  it('sends Valve-only fields through modelKwargs', async () => {
    const message = await chat('auto', { valve: { task: 'greet' } }).invoke('Say hello.');
    const exchange = await exchangeOf(door, receiptIdOf(message.id));
    expect((JSON.parse(exchange.answer) as { valve: { task: string } }).valve.task).toBe('greet');
    await expectReceiptVerifies(door, receiptIdOf(message.id));
  });

  it('stream yields chunks whose concatenation is the answer', async () => {
    let whole: AIMessageChunk | undefined;
    for await (const chunk of await chat().stream('Say hello.')) whole = whole ? whole.concat(chunk) : chunk;
    expect(whole?.content).toMatch(/^\[simulated by sim\/answer\]/);
    await expectReceiptVerifies(door, receiptIdOf(whole?.id));
  });

  it('bindTools hands back the tool call with parsed arguments', async () => {
    const model = chat().bindTools([
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'The weather in a city.',
          parameters: {
            type: 'object',
            properties: { city: { type: 'string' } },
            required: ['city'],
            additionalProperties: false,
          },
        },
      },
    ]);
    const message = await model.invoke('Use get_weather for Paris.');
    expect(message.tool_calls).toHaveLength(1);
    expect(message.tool_calls?.[0]?.name).toBe('get_weather');
    expect(typeof message.tool_calls?.[0]?.args.city).toBe('string');
    await expectReceiptVerifies(door, receiptIdOf(message.id));
  });

  it('withStructuredOutput returns an object valid against the zod schema', async () => {
    const Rating = z.object({ score: z.number().int().min(1).max(5), reason: z.string() });
    const result = await chat().withStructuredOutput(Rating, { includeRaw: true }).invoke('Rate the ticket.');
    expect(Rating.safeParse(result.parsed).success).toBe(true);
    await expectReceiptVerifies(door, receiptIdOf(result.raw.id));
  });

  it('surfaces a stream cut after content as an error, never as a complete answer', async () => {
    const chunks: string[] = [];
    const read = async () => {
      for await (const chunk of await chat('sim/cut').stream('Say hello.'))
        chunks.push(String(chunk.content));
    };
    await expect(read()).rejects.toThrow();
    expect(chunks.join('').length).toBeGreaterThan(0);
  });
});
