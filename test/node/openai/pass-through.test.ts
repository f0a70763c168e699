import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeUpstream, fixture, startFakeUpstream } from '../fake-upstream/fake-upstream';
import { type RunningValve, startValve } from '../helpers/start-valve';

// Settings an OpenAI client sends reach a model that supports them, in that provider's own wire
// format: here an OpenAI-format upstream (a local fake) behind Valve, and the body it received.

let upstream: FakeUpstream;
let valve: RunningValve;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  valve = await startValve({
    catalog: {
      providers: [
        { id: 'up', kind: 'openai', baseUrl: `${upstream.url}/up/v1`, apiKeyEnv: 'OPENAI_API_KEY' },
      ],
      models: [
        {
          provider: 'up',
          model: 'gpt-test',
          regions: ['lab'],
          priceUsdPerMTok: { input: 1, output: 2 },
          quality: 90,
          latency: { ttftMsP50: 50, ttftMsP90: 100, outputTokensPerSec: 5000 },
          contextTokens: 32_000,
          maxOutputTokens: 4096,
          capabilities: { tools: true, json: 'native', reasoning: false, base64Data: false },
          maxPrivacy: 'confidential',
        },
      ],
    },
    vars: { OPENAI_API_KEY: 'test-openai' },
  });
});
afterAll(async () => {
  await valve?.stop();
  await upstream?.close();
});

describe('settings through the door', () => {
  it('passes temperature, stop, tool_choice and parallel_tool_calls to the model, and max_tokens as its cap', async () => {
    upstream.script('up', [{ type: 'json', body: fixture('openai/text.json') }]);
    const client = new OpenAI({ baseURL: `${valve.url}/openai/v1`, apiKey: valve.key, maxRetries: 0 });
    const completion = await client.chat.completions.create({
      model: 'up/gpt-test',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Plan a holiday.' },
      ],
      temperature: 0.3,
      stop: ['END'],
      max_completion_tokens: 200,
      tools: [
        { type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: {} } } },
      ],
      tool_choice: 'none',
      parallel_tool_calls: false,
    });
    expect(completion.choices[0]?.message.content).toBe('**Holiday Name:** Galaxy Day');
    const sent = upstream.arrivals('up')[0]?.body as Record<string, unknown>;
    expect(sent).toMatchObject({
      model: 'gpt-test',
      temperature: 0.3,
      stop: ['END'],
      max_tokens: 200,
      tool_choice: 'none',
      parallel_tool_calls: false,
    });
  });
});
