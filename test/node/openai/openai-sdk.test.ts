import OpenAI from 'openai';
import { zodResponseFormat } from 'openai/helpers/zod';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Door, expectReceiptVerifies, receiptIdOf, startDoor } from './door-harness';

// The official `openai` Node SDK pointed at Valve with nothing changed but baseURL and apiKey.

let door: Door;
let client: OpenAI;
const chatPath = '/openai/v1/chat/completions';

beforeAll(async () => {
  door = await startDoor();
  client = new OpenAI({ baseURL: door.baseURL, apiKey: door.valve.key, fetch: door.fetch });
});
afterAll(() => door?.stop());
beforeEach(() => door.reset());

const weather = {
  type: 'function' as const,
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
};

describe('the openai SDK against /openai/v1', () => {
  it('creates a chat completion whose content, receipt id and receipt the client can check', async () => {
    const completion = await client.chat.completions.create({
      model: 'auto',
      messages: [
        { role: 'system', content: 'Answer in one sentence.' },
        { role: 'user', content: 'Say hello.' },
      ],
    });
    expect(completion.choices[0]?.message.content).toMatch(
      /^\[simulated by sim\/answer\] A deterministic answer/,
    );
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.model).toBe('sim/answer');
    const receiptId = receiptIdOf(completion.id);
    expect((completion as unknown as { valve: { receiptId: string } }).valve.receiptId).toBe(receiptId);
    await expectReceiptVerifies(door, receiptId);
  });

  it('passes the valve object through as an extra param, as the README shows', async () => {
    const params = {
      model: 'auto',
      messages: [{ role: 'user' as const, content: 'Say hello.' }],
      valve: { task: 'greet', modelPolicy: { maxCostUsd: 0.01 } },
    };
    const completion = await client.chat.completions.create(params);
    const valve = (
      completion as unknown as { valve: { task: string; decision: { budget: { maxCostUsd: number } } } }
    ).valve;
    expect(valve.task).toBe('greet');
    expect(valve.decision.budget.maxCostUsd).toBe(0.01);
    await expectReceiptVerifies(door, receiptIdOf(completion.id));
  });

  it('answers a json_schema response_format with content that parses to a value of the schema', async () => {
    const completion = await client.chat.completions.create({
      model: 'valve/cost',
      messages: [{ role: 'user', content: 'Rate the ticket.' }],
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'rating',
          strict: true,
          schema: {
            type: 'object',
            properties: { score: { type: 'integer', minimum: 1, maximum: 5 } },
            required: ['score'],
            additionalProperties: false,
          },
        },
      },
    });
    const value = JSON.parse(completion.choices[0]?.message.content ?? '') as { score: number };
    expect(Number.isInteger(value.score) && value.score >= 1 && value.score <= 5).toBe(true);
    await expectReceiptVerifies(door, receiptIdOf(completion.id));
  });

  it('hands back a validated tool call with finish_reason tool_calls', async () => {
    const completion = await client.chat.completions.create({
      model: 'auto',
      messages: [{ role: 'user', content: 'Use get_weather for Paris.' }],
      tools: [weather],
    });
    const choice = completion.choices[0];
    expect(choice?.finish_reason).toBe('tool_calls');
    const call = choice?.message.tool_calls?.[0];
    expect(call?.type).toBe('function');
    if (call?.type !== 'function') throw new Error('a function call');
    expect(call.function.name).toBe('get_weather');
    expect(typeof (JSON.parse(call.function.arguments) as { city: unknown }).city).toBe('string');
    await expectReceiptVerifies(door, receiptIdOf(completion.id));
  });

  it('holds back a tainted call to a destructive tool, and the answer still verifies', async () => {
    const params = {
      model: 'auto',
      messages: [{ role: 'user' as const, content: 'Use get_weather for Paris.' }],
      tools: [weather],
      valve: { toolAnnotations: { get_weather: { destructive: true } } },
    };
    const completion = await client.chat.completions.create(params);
    expect(completion.choices[0]?.message.tool_calls).toBeUndefined();
    expect(completion.choices[0]?.message.content).toMatch(/^Valve held back 1 call/);
    await expectReceiptVerifies(door, receiptIdOf(completion.id));
  });

  it('streams with .stream() and finalChatCompletion() gives the same text as the deltas', async () => {
    const stream = client.chat.completions.stream({
      model: 'auto',
      messages: [{ role: 'user', content: 'Say hello.' }],
      stream_options: { include_usage: true },
    });
    let deltas = '';
    stream.on('content', (delta) => {
      deltas += delta;
    });
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]?.message.content).toBe(deltas);
    expect(deltas).toMatch(/^\[simulated by sim\/answer\]/);
    expect(final.usage?.completion_tokens).toBeGreaterThan(0);
    await expectReceiptVerifies(door, receiptIdOf(final.id));
  });

  it('parses a zod response_format with chat.completions.parse()', async () => {
    const Rating = z.object({ score: z.number().int().min(1).max(5), reason: z.string() });
    const completion = await client.chat.completions.parse({
      model: 'auto',
      messages: [{ role: 'user', content: 'Rate the ticket.' }],
      response_format: zodResponseFormat(Rating, 'rating'),
    });
    const parsed = completion.choices[0]?.message.parsed;
    expect(Rating.safeParse(parsed).success).toBe(true);
    await expectReceiptVerifies(door, receiptIdOf(completion.id));
  });

  it('creates a response with responses.create, output_text and a verifiable receipt', async () => {
    const response = await client.responses.create({
      model: 'auto',
      instructions: 'Answer in one sentence.',
      input: 'Say hello.',
    });
    expect(response.status).toBe('completed');
    expect(response.output_text).toMatch(/^\[simulated by sim\/answer\]/);
    await expectReceiptVerifies(door, receiptIdOf(response.id));
  });

  it('hands back a function_call output item from responses.create with tools', async () => {
    const response = await client.responses.create({
      model: 'auto',
      input: 'Use get_weather for Paris.',
      tools: [
        { type: 'function', name: 'get_weather', parameters: weather.function.parameters, strict: true },
      ],
    });
    const call = response.output.find((item) => item.type === 'function_call');
    expect(call?.type === 'function_call' && call.name).toBe('get_weather');
    expect(
      call?.type === 'function_call' && typeof (JSON.parse(call.arguments) as { city: unknown }).city,
    ).toBe('string');
    await expectReceiptVerifies(door, receiptIdOf(response.id));
  });

  it('streams a response with responses.stream and finalResponse', async () => {
    const stream = client.responses.stream({ model: 'auto', input: 'Say hello.' });
    let deltas = '';
    stream.on('response.output_text.delta', (event) => {
      deltas += event.delta;
    });
    const final = await stream.finalResponse();
    expect(final.status).toBe('completed');
    expect(final.output_text).toBe(deltas);
    expect(deltas).toMatch(/^\[simulated by sim\/answer\]/);
    await expectReceiptVerifies(door, receiptIdOf(final.id));
  });

  it('surfaces a stream cut after content as an error, never as a complete answer', async () => {
    const stream = client.chat.completions.stream({
      model: 'sim/cut',
      messages: [{ role: 'user', content: 'Say hello.' }],
    });
    let deltas = '';
    stream.on('content', (delta) => {
      deltas += delta;
    });
    await expect(stream.finalChatCompletion()).rejects.toBeInstanceOf(OpenAI.APIError);
    expect(deltas.length).toBeGreaterThan(0);
  });

  it('surfaces a responses stream cut after content as an error', async () => {
    const stream = client.responses.stream({ model: 'sim/cut', input: 'Say hello.' });
    await expect(stream.finalResponse()).rejects.toBeInstanceOf(OpenAI.APIError);
  });

  it('maps errors to the SDK’s classes with the OpenAI param', async () => {
    const bad = client.chat.completions.create({ model: 'auto', messages: [], n: 1 });
    await expect(bad).rejects.toBeInstanceOf(OpenAI.BadRequestError);
    await expect(bad).rejects.toMatchObject({ param: 'messages' });
    const unknown = client.chat.completions.create({
      model: 'nope/none',
      messages: [{ role: 'user', content: 'hi' }],
    });
    await expect(unknown).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(unknown).rejects.toMatchObject({ code: 'model_not_found', param: 'model' });
    const anonymous = new OpenAI({ baseURL: door.baseURL, apiKey: 'not-a-key', fetch: door.fetch });
    await expect(anonymous.models.list()).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
  });

  it('does not retry an error no retry can fix: a provider’s bad key reaches Valve once', async () => {
    const create = client.chat.completions.create({
      model: 'keyless/badkey',
      messages: [{ role: 'user', content: 'Say hello.' }],
    });
    await expect(create).rejects.toBeInstanceOf(OpenAI.InternalServerError);
    expect(door.count(chatPath)).toBe(1);
  });

  it('retries an overloaded model, as the SDK does by default for a retryable 5xx', async () => {
    const retrying = new OpenAI({
      baseURL: door.baseURL,
      apiKey: door.valve.key,
      fetch: door.fetch,
      maxRetries: 1,
    });
    const create = retrying.chat.completions.create({
      model: 'sim/busy',
      messages: [{ role: 'user', content: 'Say hello.' }],
    });
    await expect(create).rejects.toBeInstanceOf(OpenAI.APIError);
    expect(door.count(chatPath)).toBe(2);
  });

  it('lists models in OpenAI’s list shape', async () => {
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids).toEqual([
      'auto',
      'valve/cost',
      'valve/speed',
      'valve/quality',
      'sim/answer',
      'sim/cut',
      'keyless/badkey',
      'sim/busy',
    ]);
  });
});
