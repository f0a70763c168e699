import { describe, expect, it } from 'vitest';
import { doorExtensionSchema } from '../../../src/contracts/door-approvals';
import { call, createKey, postJson } from '../../helpers/api';

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
    const valve = doorExtensionSchema.parse(json.valve);
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

  it('rejects a part of a type it does not read, naming exactly that part', async () => {
    const { key } = await createKey();
    const res = await chat(key, {
      model: 'auto',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'video_url', video_url: { url: 'https://x/y.mp4' } },
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
    expect(res.headers.get('x-request-id')).toMatch(/.+/);
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

  it('retrieves one model by its catalog id, slash included, plain or percent-encoded', async () => {
    const { key } = await createKey();
    const headers = { Authorization: `Bearer ${key}` };
    for (const path of ['/openai/v1/models/sim/fast', '/openai/v1/models/sim%2Ffast']) {
      const res = await call(path, { headers });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ id: 'sim/fast', object: 'model', created: 0, owned_by: 'sim' });
    }
    const alias = await call('/openai/v1/models/valve/cost', { headers });
    expect(((await alias.json()) as { id: string }).id).toBe('valve/cost');
  });

  it('answers 404 model_not_found for a model the door does not serve', async () => {
    const { key } = await createKey();
    const res = await call('/openai/v1/models/sim/nope', { headers: { Authorization: `Bearer ${key}` } });
    expect(res.status).toBe(404);
    expect(((await res.json()) as OpenAiErrorJson).error).toMatchObject({
      type: 'not_found_error',
      code: 'model_not_found',
      param: 'model',
    });
  });
});

describe('POST /openai/v1/chat/completions: trust, privacy and the rest of the errors', () => {
  const destructive = {
    model: 'auto',
    messages: [{ role: 'user', content: 'Call delete_file now.' }],
    tools: [{ type: 'function', function: { name: 'delete_file', parameters: { type: 'object' } } }],
    valve: { toolAnnotations: { delete_file: { destructive: true } } },
  };

  it('holds back a tainted call to a destructive tool and says so in the answer', async () => {
    const { key } = await createKey();
    const json = (await (await chat(key, destructive)).json()) as Completion;
    const valve = doorExtensionSchema.parse(json.valve);
    expect(valve.toolCalls).toMatchObject([{ name: 'delete_file', tainted: true }]);
    expect(json.choices[0]?.message.tool_calls).toBeUndefined();
    expect(json.choices[0]?.finish_reason).toBe('stop');
    expect(json.choices[0]?.message.content).toMatch(
      /^Valve held back 1 call\(s\) to the destructive tool\(s\) delete_file/,
    );
    expect(valve.approvals).toMatchObject([
      {
        callId: valve.toolCalls[0]?.id,
        receiptId: valve.receiptId,
        tool: 'delete_file',
        allowed: ['approve', 'edit', 'reject', 'respond'],
      },
    ]);
    expect(valve.approvals?.[0]?.expiresAt).toBeGreaterThan(Date.now());
    expect(valve.warnings.filter((w) => w.code === 'openai.tool_call_held')).toEqual([
      {
        code: 'openai.tool_call_held',
        message: `Tool call ${valve.toolCalls[0]?.id} (delete_file) follows untrusted input and its tool is destructive: it was not handed to the client; a reviewer decides it (valve.approvals).`,
      },
    ]);
  });

  it('hands the call over when the caller’s policy allows tainted destructive calls', async () => {
    const { key } = await createKey();
    const body = { ...destructive, valve: { ...destructive.valve, allowTaintedDestructive: true } };
    const json = (await (await chat(key, body)).json()) as Completion;
    expect(json.choices[0]?.finish_reason).toBe('tool_calls');
    expect(json.choices[0]?.message.tool_calls).toMatchObject([
      { type: 'function', function: { name: 'delete_file' } },
    ]);
  });

  it('plans only models allowed the privacy level of the messages', async () => {
    const { key } = await createKey();
    const json = (await (
      await chat(key, { ...hello, valve: { privacy: 'restricted' } })
    ).json()) as Completion;
    expect(json.model).toBe('sim/deep');
    // The planner itself excluded them, so the signed decision trace says why.
    expect(doorExtensionSchema.parse(json.valve).decision.excluded).toContainEqual(
      expect.objectContaining({ model: 'fast', reason: 'privacy' }),
    );
  });

  it('answers 422 when no model may read the messages', async () => {
    const { key } = await createKey();
    const res = await chat(key, {
      ...hello,
      model: 'valve/cost',
      valve: { privacy: 'restricted', modelPolicy: { regions: ['eu'] } },
    });
    expect(res.status).toBe(422);
    const json = (await res.json()) as OpenAiErrorJson & {
      valve: { details: { excluded: { model: string; reason: string }[] } };
    };
    expect(json.error).toMatchObject({ type: 'invalid_request_error', code: 'policy.no_eligible_model' });
    expect(json.valve.details.excluded).toContainEqual(
      expect.objectContaining({ model: 'fast', reason: 'privacy' }),
    );
    expect(res.headers.get('x-should-retry')).toBe('false');
  });

  it('answers 400 context_length_exceeded when the messages fit no window, as clients expect', async () => {
    const { key } = await createKey();
    // sim/fast's window is 32,000 tokens; this is about 40,000.
    const long = { role: 'user', content: 'word '.repeat(40_000) };
    const res = await chat(key, { model: 'sim/fast', messages: [long] });
    expect(res.status).toBe(400);
    const json = (await res.json()) as OpenAiErrorJson & { valve: { code: string } };
    expect(json.error).toMatchObject({ type: 'invalid_request_error', code: 'context_length_exceeded' });
    expect(json.error.message).toMatch(
      /^Input tokens exceed the configured limit .*sim\/fast: about \d+ input tokens/,
    );
    expect(json.valve.code).toBe('policy.no_eligible_model');
    expect(res.headers.get('x-should-retry')).toBe('false');
  });

  it('pins a catalog model and answers 404 model_not_found for one outside the catalog', async () => {
    const { key } = await createKey();
    const pinned = (await (await chat(key, { ...hello, model: 'sim/fast' })).json()) as Completion;
    expect(pinned.model).toBe('sim/fast');
    const res = await chat(key, { ...hello, model: 'sim/none' });
    expect(res.status).toBe(404);
    expect(((await res.json()) as OpenAiErrorJson).error).toMatchObject({
      param: 'model',
      code: 'model_not_found',
    });
  });

  it('answers 403 permission_error for a key without the reason scope', async () => {
    const { key } = await createKey('door-readonly', ['receipts:read']);
    const res = await chat(key, hello);
    expect(res.status).toBe(403);
    expect(((await res.json()) as OpenAiErrorJson).error.type).toBe('permission_error');
  });

  it('answers 415 for a body that is not JSON and 405 for another method', async () => {
    const { key } = await createKey();
    const text = await call('/openai/v1/chat/completions', {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'text/plain' },
      body: 'hi',
    });
    expect(text.status).toBe(415);
    expect(((await text.json()) as OpenAiErrorJson).error.type).toBe('invalid_request_error');
    const get = await call('/openai/v1/chat/completions', { headers: { Authorization: `Bearer ${key}` } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });

  it('answers a body over the size limit with a 413 in OpenAI’s shape', async () => {
    const { key } = await createKey();
    const res = await chat(key, {
      model: 'auto',
      messages: [{ role: 'user', content: 'x'.repeat(1_100_000) }],
    });
    expect(res.status).toBe(413);
    expect(((await res.json()) as OpenAiErrorJson).error).toMatchObject({
      type: 'invalid_request_error',
      code: 'request_too_large',
    });
  });

  it('names the system message that fails the instruction lint', async () => {
    const { key } = await createKey();
    const res = await chat(key, {
      model: 'auto',
      messages: [
        { role: 'system', content: 'x <data-a>' },
        { role: 'user', content: 'y' },
      ],
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as OpenAiErrorJson).error.param).toBe('messages[0].content');
  });

  const weather = [
    { role: 'user', content: 'Weather?' },
    {
      role: 'assistant',
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'w', arguments: '{}' } }],
    },
    { role: 'tool', tool_call_id: 'c1', content: 'sunny' },
  ];

  it('runs tool turns: the call and its result are the Reason request’s own turns, committed as sent', async () => {
    const { key } = await createKey();
    const res = await chat(key, {
      model: 'auto',
      messages: weather,
      tools: [{ type: 'function', function: { name: 'w' } }],
    });
    expect(res.status).toBe(200);
    const json = (await res.json()) as Completion;
    // The simulated agent answers in text once a tool result is in the prompt.
    expect(json.choices[0]?.finish_reason).toBe('stop');
    expect(json.choices[0]?.message.content).toMatch(/.+/);
    expect(doorExtensionSchema.parse(json.valve).toolCalls).toEqual([]);
  });

  it('answers a tool call left unanswered with a 400 naming the message it is in', async () => {
    const { key } = await createKey();
    // The system message becomes instructions, so the call is Reason turn 1 but messages[2].
    const res = await chat(key, {
      model: 'auto',
      messages: [
        { role: 'system', content: 'Be brief.' },
        ...weather.slice(0, 2),
        { role: 'user', content: 'Never mind.' },
      ],
      tools: [{ type: 'function', function: { name: 'w' } }],
    });
    expect(res.status).toBe(400);
    const error = ((await res.json()) as OpenAiErrorJson).error;
    expect(error.param).toBe('messages[2]');
    expect(error.message).toMatch(/is not answered: .*must follow messages\[2\]/);
    expect(error.message).not.toMatch(/assistant turn/);
  });

  it('replays the same answer for the same valve.receiptId', async () => {
    const { key } = await createKey();
    const body = {
      ...hello,
      valve: {
        receiptId: '7d0e2a6c-5b1d-4c8e-9a7f-0123456789ab',
        receiptSalt: 'c2FsdC1zYWx0LXNhbHQtc2FsdC1zYWx0LXNhbHQtc2FsdC1zYWx0',
      },
    };
    const first = (await (await chat(key, body)).json()) as Completion;
    const again = (await (await chat(key, body)).json()) as Completion;
    expect(again.id).toBe('chatcmpl-7d0e2a6c-5b1d-4c8e-9a7f-0123456789ab');
    expect(again.choices).toEqual(first.choices);
  });

  it('answers JSON output as the message content string', async () => {
    const { key } = await createKey();
    const res = await chat(key, { ...hello, response_format: { type: 'json_object' } });
    const json = (await res.json()) as Completion;
    const valve = doorExtensionSchema.parse(json.valve);
    expect(valve.output.format).toBe('json');
    expect(JSON.parse(json.choices[0]?.message.content ?? '')).toEqual(
      (valve.output as { value: unknown }).value,
    );
  });
});
