import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, jsonSchema, stepCountIs, tool } from 'ai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Door, expectReceiptVerifies, receiptIdOf, startDoor } from './door-harness';

// Two-step tool loops driven by the clients: the model calls a tool, the client runs it and sends the
// result back as a tool message. They need the pipeline to run tool turns (the extended Reason
// request's agent loop); until it does, the door answers tool turns with a 400 and these stay off.
const agentLoop = false;

let door: Door;
const weather: Record<string, unknown> = {
  type: 'object',
  properties: { city: { type: 'string' } },
  required: ['city'],
  additionalProperties: false,
};

beforeAll(async () => {
  door = await startDoor();
});
afterAll(() => door?.stop());

describe.skipIf(!agentLoop)('tool loops through the door', () => {
  it('runs a two-step runTools loop with the openai SDK, each answer with a verifiable receipt', async () => {
    door.reset();
    const client = new OpenAI({
      baseURL: door.baseURL,
      apiKey: door.valve.key,
      fetch: door.fetch,
      maxRetries: 0,
    });
    const runner = client.chat.completions.runTools(
      {
        model: 'auto',
        messages: [{ role: 'user', content: 'Use get_weather for Paris, then answer.' }],
        tools: [
          {
            type: 'function',
            function: {
              name: 'get_weather',
              description: 'The weather in a city.',
              parameters: weather,
              function: (args: { city: string }) => ({ city: args.city, celsius: 18 }),
              parse: JSON.parse,
            },
          },
        ],
      },
      { maxChatCompletions: 2 },
    );
    const completions: string[] = [];
    runner.on('chatCompletion', (completion) => completions.push(completion.id));
    await runner.done();
    expect(completions.length).toBe(2);
    const second = door.exchanges.filter((e) => e.path.endsWith('/chat/completions'))[1]?.body as {
      messages: { role: string; content?: string }[];
    };
    expect(second.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(JSON.parse(second.messages[2]?.content ?? '')).toEqual({ city: 'Paris', celsius: 18 });
    for (const id of completions) await expectReceiptVerifies(door, receiptIdOf(id));
  });

  it('runs a two-step tool loop with the AI SDK', async () => {
    door.reset();
    const valve = createOpenAICompatible({
      name: 'valve',
      baseURL: door.baseURL,
      apiKey: door.valve.key,
      fetch: door.fetch,
    });
    const result = await generateText({
      model: valve('auto'),
      prompt: 'Use get_weather for Paris, then answer.',
      tools: {
        get_weather: tool({
          inputSchema: jsonSchema<{ city: string }>(weather as never),
          execute: async ({ city }) => ({ city, celsius: 18 }),
        }),
      },
      stopWhen: stepCountIs(2),
    });
    expect(result.steps).toHaveLength(2);
    expect(result.steps[0]?.toolResults[0]?.output).toEqual({ city: 'Paris', celsius: 18 });
    for (const step of result.steps) await expectReceiptVerifies(door, receiptIdOf(step.response.id));
  });
});
