import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../../../src/model/model-request';
import { openaiAdapter } from '../../../src/providers/openai/openai-adapter';
import contextLength from '../../fixtures/providers/openai/error-context-length.json';
import insufficientQuota from '../../fixtures/providers/openai/error-insufficient-quota.json';
import invalidKey from '../../fixtures/providers/openai/error-invalid-key.json';
import refusalJson from '../../fixtures/providers/openai/refusal.json';
import refusalSse from '../../fixtures/providers/openai/refusal.sse.json';
import textJson from '../../fixtures/providers/openai/text.json';
import textSse from '../../fixtures/providers/openai/text.sse.json';
import toolCall from '../../fixtures/providers/openai/tool-call.json';
import {
  callOptions,
  drain,
  fakeFetch,
  jsonResponse,
  rejection,
  sseFrames,
  sseResponse,
  streamedText,
  trustedText,
  trustRequest,
  untrustedText,
} from '../fake-fetch';

const toolRequest: ModelRequest = {
  ...trustRequest,
  tools: [
    {
      name: 'get_current_weather',
      description: 'Weather by city',
      input_schema: { type: 'object', properties: { location: { type: 'string' } } },
    },
  ],
  tool_choice: { name: 'get_current_weather' },
  settings: { max_tokens: 100, parallel_tool_calls: false },
};

describe('openai adapter: the request sent', () => {
  it('posts Chat Completions with the key, trusted text only in the system message', async () => {
    const { fetch, calls } = fakeFetch(() => jsonResponse(textJson));
    await openaiAdapter.generate(trustRequest, callOptions(fetch));
    expect(calls[0]?.url).toBe('https://api.openai.com/v1/chat/completions');
    expect(calls[0]?.headers.authorization).toBe('Bearer sk-test');
    expect(calls[0]?.body).toEqual({
      model: 'test-model',
      messages: [
        { role: 'system', content: trustedText },
        { role: 'user', content: untrustedText },
      ],
      max_completion_tokens: 256,
      temperature: 0.2,
    });
  });

  it('sends OpenAI’s own reasoning models no temperature or top_p, and says it dropped them', async () => {
    // OpenAI answers 400 unsupported_value / unsupported_parameter to a temperature or top_p other than
    // the default for o1, o3, o4-mini and the GPT-5 reasoning models.
    const sampled: ModelRequest = {
      ...trustRequest,
      settings: { max_tokens: 256, temperature: 0.2, top_p: 0.9 },
    };
    const { fetch, calls } = fakeFetch(() => jsonResponse(textJson));
    const response = await openaiAdapter.generate(
      sampled,
      callOptions(fetch, { model: 'o3', reasoning: true }),
    );
    expect(calls[0]?.body).not.toHaveProperty('temperature');
    expect(calls[0]?.body).not.toHaveProperty('top_p');
    expect(calls[0]?.body).toMatchObject({ model: 'o3', max_completion_tokens: 256 });
    const dropped = response.warnings?.filter((w) => w.code === 'model.setting_dropped') ?? [];
    expect(dropped.map((w) => w.message)).toEqual([
      expect.stringContaining('sampling.temperature'),
      expect.stringContaining('sampling.topP'),
    ]);
    // A model that does not reason, and a compatible server (which may take them), get them as sent.
    for (const options of [{ reasoning: false }, { reasoning: true, baseUrl: 'http://127.0.0.1:11434/v1' }]) {
      const wire = openaiAdapter.toWireBody?.(sampled, callOptions(fetch, options));
      expect(wire).toMatchObject({ temperature: 0.2, top_p: 0.9 });
    }
  });

  it('reaches a compatible server through baseUrl, without a key, with max_tokens', async () => {
    const { fetch, calls } = fakeFetch(() => jsonResponse(textJson));
    await openaiAdapter.generate(
      trustRequest,
      callOptions(fetch, { apiKey: undefined, baseUrl: 'http://127.0.0.1:11434/v1/' }),
    );
    expect(calls[0]?.url).toBe('http://127.0.0.1:11434/v1/chat/completions');
    expect(calls[0]?.headers.authorization).toBeUndefined();
    expect(calls[0]?.body.max_tokens).toBe(256);
  });

  it('maps tools, a named tool choice and parallel_tool_calls', () => {
    const body = openaiAdapter.toWireBody?.(toolRequest, callOptions(fetch)) as Record<string, unknown>;
    expect(body.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'get_current_weather',
          description: 'Weather by city',
          parameters: { type: 'object', properties: { location: { type: 'string' } } },
        },
      },
    ]);
    expect(body.tool_choice).toEqual({ type: 'function', function: { name: 'get_current_weather' } });
    expect(body.parallel_tool_calls).toBe(false);
  });

  it('asks for JSON with a strict json_schema response format', () => {
    const schema = {
      type: 'object',
      properties: { a: { type: 'string' } },
      required: ['a'],
      additionalProperties: false,
    };
    const body = openaiAdapter.toWireBody?.(
      { ...trustRequest, output: { schema } },
      callOptions(fetch),
    ) as Record<string, unknown>;
    expect(body.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'output', schema, strict: true },
    });
  });

  it('streams with stream_options.include_usage', async () => {
    const { fetch, calls } = fakeFetch(() => sseResponse(sseFrames(textSse)));
    await drain(openaiAdapter.stream(trustRequest, callOptions(fetch)));
    expect(calls[0]?.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });
});

describe('openai adapter: the answer', () => {
  it('parses text, keeps raw and mapped finish reasons, and reports usage', async () => {
    const { fetch } = fakeFetch(() => jsonResponse(textJson));
    const response = await openaiAdapter.generate(trustRequest, callOptions(fetch));
    expect(response).toEqual({
      message: { role: 'assistant', content: [{ type: 'text', text: '**Holiday Name:** Galaxy Day' }] },
      usage: { input_tokens: 16, output_tokens: 363, cache_read_tokens: 0, reasoning_tokens: 0 },
      finish_reason: 'stop',
      raw_finish_reason: 'stop',
      model: 'gpt-4.1-nano-2025-04-14',
    });
  });

  it('parses tool calls with cached and reasoning tokens', async () => {
    const { fetch } = fakeFetch(() => jsonResponse(toolCall));
    const response = await openaiAdapter.generate(toolRequest, callOptions(fetch));
    expect(response.message.content).toEqual([
      { type: 'tool_call', id: 'call_abc123', name: 'get_current_weather', args: { location: 'Boston, MA' } },
    ]);
    expect(response.finish_reason).toBe('tool_calls');
    expect(response.usage).toEqual({
      input_tokens: 82,
      output_tokens: 17,
      cache_read_tokens: 64,
      reasoning_tokens: 5,
    });
  });

  it('maps an unknown finish reason to other, never stop', async () => {
    const body = structuredClone(textJson);
    (body.choices[0] as { finish_reason: string }).finish_reason = 'brand_new_reason';
    const { fetch } = fakeFetch(() => jsonResponse(body));
    const response = await openaiAdapter.generate(trustRequest, callOptions(fetch));
    expect(response.finish_reason).toBe('other');
    expect(response.raw_finish_reason).toBe('brand_new_reason');
  });

  it('fails with content_filter when the provider filtered the answer', async () => {
    const body = structuredClone(textJson);
    (body.choices[0] as { finish_reason: string }).finish_reason = 'content_filter';
    const { fetch } = fakeFetch(() => jsonResponse(body));
    const error = await rejection(openaiAdapter.generate(trustRequest, callOptions(fetch)));
    expect(error).toMatchObject({
      kind: 'content_filter',
      provider_code: 'content_filter',
      dispatch: 'sent',
    });
  });

  it('fails with invalid_response when JSON was asked and the text does not parse', async () => {
    const { fetch } = fakeFetch(() => jsonResponse(textJson));
    const error = await rejection(
      openaiAdapter.generate({ ...trustRequest, output: { schema: {} } }, callOptions(fetch)),
    );
    expect(error.kind).toBe('invalid_response');
  });

  it('answers a refusal as a refusal block, not text and not JSON to parse, finishing content_filter', async () => {
    const { fetch } = fakeFetch(() => jsonResponse(refusalJson));
    const response = await openaiAdapter.generate(
      { ...trustRequest, output: { schema: { type: 'object' } } },
      callOptions(fetch),
    );
    expect(response.message.content).toEqual([
      { type: 'refusal', refusal: "I'm sorry, I cannot assist with that request." },
    ]);
    expect(response.finish_reason).toBe('content_filter');
    expect(response.raw_finish_reason).toBe('stop');
    expect(response.usage).toMatchObject({ input_tokens: 81, output_tokens: 11 });
    expect(response.warnings).toBeUndefined();
  });

  it('streams delta.refusal as refusal deltas and finishes content_filter', async () => {
    const { fetch } = fakeFetch(() => sseResponse(sseFrames(refusalSse)));
    const { parts, error } = await drain(openaiAdapter.stream(trustRequest, callOptions(fetch)));
    expect(error).toBeUndefined();
    expect(streamedText(parts)).toBe('');
    const deltas = parts.flatMap((p) => (p.type === 'delta' ? [p.delta.delta] : []));
    expect(deltas).toEqual([
      { type: 'refusal', text: "I'm sorry, " },
      { type: 'refusal', text: 'I cannot assist ' },
      { type: 'refusal', text: 'with that request.' },
    ]);
    expect(parts.at(-1)).toMatchObject({
      type: 'finish',
      finish_reason: 'content_filter',
      raw_finish_reason: 'stop',
      usage: { input_tokens: 81, output_tokens: 11 },
    });
  });

  it('streams deltas and finishes only at [DONE], with the usage chunk', async () => {
    const { fetch } = fakeFetch(() => sseResponse(sseFrames(textSse)));
    const { parts, error } = await drain(openaiAdapter.stream(trustRequest, callOptions(fetch)));
    expect(error).toBeUndefined();
    expect(streamedText(parts)).toBe('**Holiday Name:**');
    expect(parts.at(-1)).toEqual({
      type: 'finish',
      finish_reason: 'stop',
      raw_finish_reason: 'stop',
      usage: { input_tokens: 16, output_tokens: 300, cache_read_tokens: 0, reasoning_tokens: 0 },
      model: 'gpt-4.1-nano-2025-04-14',
    });
  });
});

describe('openai adapter: failures', () => {
  const table: [string, number, unknown, Record<string, string>, Record<string, unknown>][] = [
    [
      'context_length_exceeded',
      400,
      contextLength,
      {},
      { kind: 'context_overflow', provider_code: 'context_length_exceeded' },
    ],
    [
      'insufficient_quota on a 429',
      429,
      insufficientQuota,
      {},
      { kind: 'quota_exhausted', provider_code: 'insufficient_quota' },
    ],
    ['a bad key', 401, invalidKey, {}, { kind: 'auth', provider_code: 'invalid_api_key' }],
    [
      'a rate limit with retry-after-ms',
      429,
      { error: { message: 'slow down', type: 'requests', code: 'rate_limit_exceeded' } },
      { 'retry-after-ms': '750' },
      { kind: 'rate_limited', retry_after_ms: 750 },
    ],
    [
      'a 500 with a non-JSON body',
      500,
      'upstream exploded',
      { 'x-request-id': 'req_1' },
      { kind: 'server', request_id: 'req_1' },
    ],
    [
      'a 503',
      503,
      { error: { message: 'The engine is currently overloaded', type: 'server_error' } },
      {},
      { kind: 'server' },
    ],
    [
      'a vLLM context error without a code',
      400,
      { error: { message: "This model's maximum context length is 4096 tokens.", type: 'BadRequestError' } },
      {},
      { kind: 'context_overflow' },
    ],
    [
      'a missing model',
      404,
      {
        error: {
          message: 'The model `x` does not exist',
          type: 'invalid_request_error',
          code: 'model_not_found',
        },
      },
      {},
      { kind: 'not_found' },
    ],
  ];
  it.each(table)('classifies %s', async (_name, status, body, headers, expected) => {
    const { fetch } = fakeFetch(() =>
      typeof body === 'string'
        ? new Response(body, { status, headers })
        : jsonResponse(body, status, headers),
    );
    const error = await rejection(openaiAdapter.generate(trustRequest, callOptions(fetch)));
    expect(error).toMatchObject({
      ...expected,
      status,
      provider: 'openai',
      dispatch: 'sent',
      emitted_deltas: false,
    });
  });

  it('fails auth before sending when OpenAI has no key', async () => {
    const { fetch, calls } = fakeFetch(() => jsonResponse(textJson));
    const error = await rejection(
      openaiAdapter.generate(trustRequest, callOptions(fetch, { apiKey: undefined })),
    );
    expect(error).toMatchObject({ kind: 'auth', dispatch: 'not_sent' });
    expect(calls).toHaveLength(0);
  });

  it('classifies an in-band error chunk after content, with emitted_deltas', async () => {
    const frames = sseFrames(textSse).slice(0, 3);
    frames.push(
      `data: ${JSON.stringify({ error: { message: 'The server had an error', type: 'server_error' } })}\n\n`,
    );
    const { fetch } = fakeFetch(() => sseResponse(frames));
    const { parts, error } = await drain(openaiAdapter.stream(trustRequest, callOptions(fetch)));
    expect(streamedText(parts)).toBe('**Holiday');
    expect(error).toMatchObject({ kind: 'server', dispatch: 'streaming', emitted_deltas: true });
  });

  it('never finishes a stream that ends without a finish reason', async () => {
    // Frames 1–4 the text, 5 the finish reason, 6 usage, 7 [DONE].
    const { fetch } = fakeFetch(() => sseResponse(sseFrames(textSse).slice(0, 5)));
    const { parts, error } = await drain(openaiAdapter.stream(trustRequest, callOptions(fetch)));
    expect(parts.some((part) => part.type === 'finish')).toBe(false);
    expect(error).toMatchObject({ kind: 'invalid_response', dispatch: 'streaming', emitted_deltas: true });
  });

  it('finishes a stream that has its finish reason and usage but no [DONE], with a warning', async () => {
    const { fetch } = fakeFetch(() => sseResponse(sseFrames(textSse).slice(0, -1)));
    const { parts, error } = await drain(openaiAdapter.stream(trustRequest, callOptions(fetch)));
    expect(error).toBeUndefined();
    const finish = parts.find((part) => part.type === 'finish');
    expect(finish).toMatchObject({
      finish_reason: 'stop',
      warnings: [{ code: 'model.stream_unterminated' }],
    });
    expect(finish?.type === 'finish' && finish.usage.output_tokens).toBeGreaterThan(0);
  });

  it('reports a stream cut mid-answer as network with emitted_deltas', async () => {
    const { fetch } = fakeFetch(() =>
      sseResponse(sseFrames(textSse).slice(0, 3), new TypeError('terminated')),
    );
    const { error } = await drain(openaiAdapter.stream(trustRequest, callOptions(fetch)));
    expect(error).toMatchObject({ kind: 'network', dispatch: 'streaming', emitted_deltas: true });
  });

  it('reports a malformed chunk as invalid_response', async () => {
    const frames = [...sseFrames(textSse).slice(0, 2), 'data: {"choices":[{"delta":\n\n'];
    const { fetch } = fakeFetch(() => sseResponse(frames));
    const { error } = await drain(openaiAdapter.stream(trustRequest, callOptions(fetch)));
    expect(error).toMatchObject({ kind: 'invalid_response', dispatch: 'streaming' });
  });
});
