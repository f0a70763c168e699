import { describe, expect, it } from 'vitest';
import { reasonResponseSchema } from '../../src/contracts/reason-response';
import { call, createKey, postJson } from '../helpers/api';

const chat = (key: string, body: unknown, headers: Record<string, string> = {}) =>
  postJson('/openai/v1/chat/completions', body, { Authorization: `Bearer ${key}`, ...headers });

const hello = { model: 'auto', messages: [{ role: 'user', content: 'Say hello.' }] };

interface Completion {
  id: string;
  object: string;
  model: string;
  choices: {
    index: number;
    message: { role: string; content: string | null; tool_calls?: unknown[] };
    finish_reason: string;
  }[];
  usage: Record<string, unknown>;
  valve: unknown;
}

interface OpenAiErrorJson {
  error: { message: string; type: string; param: string | null; code: string };
}

describe('POST /openai/v1/chat/completions', () => {
  it('answers a chat.completion whose id is the receipt id and whose valve extension is the signed Reason response', async () => {
    const { key } = await createKey();
    const res = await chat(key, hello);
    expect(res.status).toBe(200);
    const json = (await res.json()) as Completion;
    const valve = reasonResponseSchema.parse(json.valve);
    expect(json.id).toBe(`chatcmpl-${valve.receiptId}`);
    expect(res.headers.get('x-valve-receipt-id')).toBe(valve.receiptId);
    expect(res.headers.get('x-request-id')).toMatch(/.+/);
    expect(json.object).toBe('chat.completion');
    expect(json.model).toBe(`${valve.model.provider}/${valve.model.model}`);
    expect(json.choices).toEqual([
      {
        index: 0,
        message: { role: 'assistant', content: (valve.output as { text: string }).text, refusal: null },
        finish_reason: 'stop',
        logprobs: null,
      },
    ]);
    expect(json.usage).toEqual({
      prompt_tokens: valve.usage.inputTokens,
      completion_tokens: valve.usage.outputTokens,
      total_tokens: valve.usage.inputTokens + valve.usage.outputTokens,
      prompt_tokens_details: { cached_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0 },
    });
    expect(valve.task).toBe('openai.chat/1');
  });

  it('rejects an unknown top-level field with a 400 naming it, in OpenAI’s error shape', async () => {
    const { key } = await createKey();
    const res = await chat(key, { ...hello, frequency_penaltyy: 1 });
    expect(res.status).toBe(400);
    const json = (await res.json()) as OpenAiErrorJson;
    expect(json.error).toMatchObject({
      type: 'invalid_request_error',
      param: 'frequency_penaltyy',
      code: 'request.invalid',
    });
    expect(res.headers.get('x-should-retry')).toBe('false');
    expect(res.headers.get('x-request-id')).toMatch(/.+/);
  });

  it('rejects n > 1', async () => {
    const { key } = await createKey();
    const res = await chat(key, { ...hello, n: 2 });
    expect(res.status).toBe(400);
    expect(((await res.json()) as OpenAiErrorJson).error.param).toBe('n');
  });

  it('rejects an image part naming exactly that part', async () => {
    const { key } = await createKey();
    const res = await chat(key, {
      model: 'auto',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image_url', image_url: { url: 'https://x/y.png' } },
          ],
        },
      ],
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as OpenAiErrorJson).error.param).toBe('messages[0].content[1]');
  });

  it('answers 401 in OpenAI’s shape without a key', async () => {
    const res = await postJson('/openai/v1/chat/completions', hello);
    expect(res.status).toBe(401);
    expect(((await res.json()) as OpenAiErrorJson).error).toMatchObject({
      type: 'authentication_error',
      code: 'missing_api_key',
    });
  });

  it('lists the aliases and the reachable catalog models', async () => {
    const { key } = await createKey();
    const res = await call('/openai/v1/models', { headers: { Authorization: `Bearer ${key}` } });
    const json = (await res.json()) as { object: string; data: { id: string }[] };
    expect(json.object).toBe('list');
    expect(json.data.map((m) => m.id)).toEqual([
      'auto',
      'valve/cost',
      'valve/speed',
      'valve/quality',
      'sim/fast',
      'sim/balanced',
      'sim/deep',
    ]);
  });
});
