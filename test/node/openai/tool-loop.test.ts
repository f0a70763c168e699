import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, jsonSchema, stepCountIs, tool } from 'ai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Door, expectReceiptVerifies, receiptIdOf, startDoor } from './door-harness';

// Two-step tool loops driven by the clients: the model calls a tool, the client runs it and sends the
// result back as a tool message, which the door hands to the pipeline as the Reason request's own
// assistant and tool turns. Every answer of the loop carries a receipt an auditor verifies offline.

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

describe('tool loops through the door', () => {
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
      messages: { role: string; content?: string; tool_calls?: { function: { arguments: string } }[] }[];
    };
    expect(second.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    // The simulated model fills the arguments from the schema; the client ran the tool on them.
    const args = JSON.parse(second.messages[1]?.tool_calls?.[0]?.function.arguments ?? '') as {
      city: string;
    };
    expect(typeof args.city).toBe('string');
    expect(JSON.parse(second.messages[2]?.content ?? '')).toEqual({ city: args.city, celsius: 18 });
    // The second answer reads the tool's result and answers in text, which ends the loop.
    expect((await runner.finalChatCompletion()).choices[0]?.finish_reason).toBe('stop');
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
    const call = result.steps[0]?.toolCalls[0];
    expect(call?.toolName).toBe('get_weather');
    const city = (call?.input as { city?: string } | undefined)?.city;
    expect(typeof city).toBe('string');
    expect(result.steps[0]?.toolResults[0]?.output).toEqual({ city, celsius: 18 });
    expect(result.steps[1]?.finishReason).toBe('stop');
    expect(result.text).not.toBe('');
    for (const step of result.steps) await expectReceiptVerifies(door, receiptIdOf(step.response.id));
  });
});
