import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { APICallError, generateObject, generateText, jsonSchema, RetryError, streamText, tool } from 'ai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Door, expectReceiptVerifies, receiptIdOf, startDoor } from './door-harness';

// The Vercel AI SDK with its OpenAI-compatible provider pointed at Valve: only baseURL and apiKey.

let door: Door;
let valve: ReturnType<typeof createOpenAICompatible>;

beforeAll(async () => {
  door = await startDoor();
  valve = createOpenAICompatible({
    name: 'valve',
    baseURL: door.baseURL,
    apiKey: door.valve.key,
    fetch: door.fetch,
    includeUsage: true,
    supportsStructuredOutputs: true,
  });
});
afterAll(() => door?.stop());
beforeEach(() => door.reset());

describe('the AI SDK against /openai/v1', () => {
  it('generateText gives the answer, a readable receipt id and a receipt that verifies', async () => {
    const result = await generateText({
      model: valve('auto'),
      system: 'Answer in one sentence.',
      prompt: 'Say hello.',
    });
    expect(result.text).toMatch(/^\[simulated by sim\/answer\] A deterministic answer/);
    expect(result.finishReason).toBe('stop');
    expect(result.usage.outputTokens).toBeGreaterThan(0);
    await expectReceiptVerifies(door, receiptIdOf(result.response.id));
  });

  it('streamText streams the same text and ends with the receipt id', async () => {
    const result = streamText({ model: valve('auto'), prompt: 'Say hello.' });
    let streamed = '';
    for await (const delta of result.textStream) streamed += delta;
    expect(streamed).toMatch(/^\[simulated by sim\/answer\]/);
    expect(await result.text).toBe(streamed);
    expect(await result.finishReason).toBe('stop');
    await expectReceiptVerifies(door, receiptIdOf((await result.response).id));
  });

  it('generateObject returns an object valid against the zod schema', async () => {
    const Rating = z.object({ score: z.number().int().min(1).max(5), reason: z.string() });
    const result = await generateObject({ model: valve('auto'), schema: Rating, prompt: 'Rate the ticket.' });
    expect(Rating.safeParse(result.object).success).toBe(true);
    await expectReceiptVerifies(door, receiptIdOf(result.response.id));
  });

  it('sends Valve-only fields through providerOptions, and hands back the valve extension in response.body', async () => {
    const result = await generateText({
      model: valve('auto'),
      prompt: 'Say hello.',
      providerOptions: { valve: { valve: { task: 'greet', modelPolicy: { prefer: 'cost' } } } },
    });
    const body = result.response.body as {
      valve: { task: string; receipt: { jws: string }; decision: { prefer: string } };
    };
    expect(body.valve.task).toBe('greet');
    expect(body.valve.decision.prefer).toBe('cost');
    expect(body.valve.receipt.jws).toMatch(/^[\w-]+\.[\w-]*\.[\w-]+$/);
    await expectReceiptVerifies(door, receiptIdOf(result.response.id));
  });

  it('makes a tool call the SDK hands back with its parsed input', async () => {
    const result = await generateText({
      model: valve('auto'),
      prompt: 'Use get_weather for Paris.',
      tools: {
        get_weather: tool({
          description: 'The weather in a city.',
          inputSchema: jsonSchema<{ city: string }>({
            type: 'object',
            properties: { city: { type: 'string' } },
            required: ['city'],
            additionalProperties: false,
          }),
        }),
      },
    });
    expect(result.finishReason).toBe('tool-calls');
    expect(result.toolCalls).toHaveLength(1);
    expect(result.toolCalls[0]?.toolName).toBe('get_weather');
    expect(typeof (result.toolCalls[0]?.input as { city: unknown } | undefined)?.city).toBe('string');
    await expectReceiptVerifies(door, receiptIdOf(result.response.id));
  });

  it('surfaces a stream cut after content as an error, never as a complete answer', async () => {
    const errors: unknown[] = [];
    const result = streamText({
      model: valve('sim/cut'),
      prompt: 'Say hello.',
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

  it('raises a provider’s bad key as an APICallError, and retries by status alone', async () => {
    door.reset();
    const failure = await generateText({
      model: valve('keyless/badkey'),
      prompt: 'Say hello.',
      maxRetries: 2,
    }).catch((error: unknown) => error);
    const errors = RetryError.isInstance(failure) ? failure.errors : [failure];
    const statuses = errors.map((error) => (APICallError.isInstance(error) ? error.statusCode : undefined));
    // The AI SDK does not read x-should-retry: it sends the 502 again, and the bad key's open circuit
    // answers each retry with a retryable 503 (the models are held out until the circuit's probe), which
    // it retries until its own limit.
    expect(statuses).toEqual([502, 503, 503]);
    expect(door.count('/openai/v1/chat/completions')).toBe(3);
  });
});
