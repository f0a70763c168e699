import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../../../src/model/model-request';
import { anthropicAdapter } from '../../../src/providers/anthropic/anthropic-adapter';
import authError from '../../fixtures/providers/anthropic/error-auth.json';
import overloaded from '../../fixtures/providers/anthropic/error-overloaded.json';
import tooLong from '../../fixtures/providers/anthropic/error-prompt-too-long.json';
import rateLimit from '../../fixtures/providers/anthropic/error-rate-limit.json';
import spendLimit from '../../fixtures/providers/anthropic/error-spend-limit.json';
import jsonTool from '../../fixtures/providers/anthropic/json-tool.json';
import refusalJson from '../../fixtures/providers/anthropic/refusal.json';
import textJson from '../../fixtures/providers/anthropic/text.json';
import textSse from '../../fixtures/providers/anthropic/text.sse.json';
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

const schema = { type: 'object', properties: { elements: { type: 'array' } }, required: ['elements'] };

describe('anthropic adapter: the request sent', () => {
  it('puts trusted text only in the top-level system field and untrusted text only in a user turn', async () => {
    const { fetch, calls } = fakeFetch(() => jsonResponse(textJson));
    await anthropicAdapter.generate(trustRequest, callOptions(fetch));
    expect(calls[0]?.url).toBe('https://api.anthropic.com/v1/messages');
    expect(calls[0]?.headers).toMatchObject({ 'x-api-key': 'sk-test', 'anthropic-version': '2023-06-01' });
    expect(calls[0]?.body).toEqual({
      model: 'test-model',
      max_tokens: 256,
      system: trustedText,
      messages: [{ role: 'user', content: [{ type: 'text', text: untrustedText }] }],
      temperature: 0.2,
    });
  });

  it('forces the json_output tool for JSON output', () => {
    const body = anthropicAdapter.toWireBody?.(
      { ...trustRequest, output: { schema } },
      callOptions(fetch),
    ) as Record<string, unknown>;
    expect(body.tools).toEqual([
      { name: 'json_output', description: expect.any(String), input_schema: schema },
    ]);
    expect(body.tool_choice).toEqual({ type: 'tool', name: 'json_output' });
  });

  it('maps tools, tool choice, tool calls and tool results', () => {
    const request: ModelRequest = {
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'weather?' }] },
        {
          role: 'assistant',
          content: [{ type: 'tool_call', id: 'toolu_1', name: 'weather', args: { city: 'Oslo' } }],
        },
        { role: 'tool', call_id: 'toolu_1', tool: 'weather', content: [{ type: 'text', text: '4°C' }] },
      ],
      tools: [{ name: 'weather', input_schema: { type: 'object' } }],
      tool_choice: 'required',
      settings: { parallel_tool_calls: false },
    };
    const body = anthropicAdapter.toWireBody?.(request, callOptions(fetch)) as Record<string, unknown>;
    expect(body.max_tokens).toBe(4096);
    expect(body.tool_choice).toEqual({ type: 'any', disable_parallel_tool_use: true });
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'weather?' }] },
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_1', name: 'weather', input: { city: 'Oslo' } }],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '4°C' }] },
    ]);
  });
});

describe('anthropic adapter: the answer', () => {
  it('parses text with raw and mapped stop reasons and usage', async () => {
    const { fetch } = fakeFetch(() => jsonResponse(textJson));
    expect(await anthropicAdapter.generate(trustRequest, callOptions(fetch))).toEqual({
      message: { role: 'assistant', content: [{ type: 'text', text: 'Hello!' }] },
      usage: {
        input_tokens: 10,
        output_tokens: 5,
        cache_read_tokens: 0,
        cache_write_tokens: 0,
        reasoning_tokens: 0,
      },
      finish_reason: 'stop',
      raw_finish_reason: 'end_turn',
      model: 'claude-opus-4-7',
    });
  });

  it('reads the forced tool input as the JSON value, counting cache reads in the input', async () => {
    const { fetch } = fakeFetch(() => jsonResponse(jsonTool));
    const response = await anthropicAdapter.generate(
      { ...trustRequest, output: { schema } },
      callOptions(fetch),
    );
    expect(response.message.content).toEqual([{ type: 'json', value: jsonTool.content[0]?.input }]);
    expect(response.finish_reason).toBe('stop');
    expect(response.raw_finish_reason).toBe('tool_use');
    expect(response.usage).toMatchObject({
      input_tokens: 1151 + 2048,
      cache_read_tokens: 2048,
      output_tokens: 87,
    });
  });

  it('maps an unknown stop reason to other', async () => {
    const unknown = { ...textJson, stop_reason: 'pause_turn' };
    const first = fakeFetch(() => jsonResponse(unknown));
    expect((await anthropicAdapter.generate(trustRequest, callOptions(first.fetch))).finish_reason).toBe(
      'other',
    );
  });

  it('answers a refusal stop as a refusal in stop_details’ words, dropping the text before it', async () => {
    const { fetch } = fakeFetch(() => jsonResponse(refusalJson));
    const response = await anthropicAdapter.generate(trustRequest, callOptions(fetch));
    expect(response.message.content).toEqual([
      { type: 'refusal', refusal: 'This request was declined because it could enable cyber harm.' },
    ]);
    expect(response.finish_reason).toBe('content_filter');
    expect(response.raw_finish_reason).toBe('refusal');
    // Without stop_details, Valve says who declined and why.
    const bare = fakeFetch(() => jsonResponse({ ...textJson, stop_reason: 'refusal' }));
    const plain = await anthropicAdapter.generate(trustRequest, callOptions(bare.fetch));
    expect(plain.message.content).toEqual([
      { type: 'refusal', refusal: 'anthropic declined to answer (refusal).' },
    ]);
  });

  it('streams text and finishes at message_stop with the final usage', async () => {
    const { fetch } = fakeFetch(() => sseResponse(sseFrames(textSse)));
    const { parts, error } = await drain(anthropicAdapter.stream(trustRequest, callOptions(fetch)));
    expect(error).toBeUndefined();
    expect(streamedText(parts)).toBe("Hello! I'm doing well, thank you for asking. How are you doing today?");
    expect(parts.at(-1)).toMatchObject({
      type: 'finish',
      finish_reason: 'stop',
      raw_finish_reason: 'end_turn',
      usage: { input_tokens: 12, output_tokens: 30 },
      model: 'claude-sonnet-4-5-20250929',
    });
  });
});

describe('anthropic adapter: a refusal stop in a stream', () => {
  const refusedAfter = (text: boolean) => {
    const events = structuredClone(textSse).events.filter(
      (e) => text || (e.data as { type: string }).type !== 'content_block_delta',
    );
    for (const e of events) {
      const data = e.data as { type: string; delta?: Record<string, unknown> };
      if (data.type === 'message_delta') {
        data.delta = {
          stop_reason: 'refusal',
          stop_details: { type: 'refusal', category: 'cyber', explanation: 'Declined: cyber harm.' },
        };
      }
    }
    return { events };
  };

  it('is a refusal delta in stop_details’ words, then a content_filter finish, when no text came first', async () => {
    const { fetch } = fakeFetch(() => sseResponse(sseFrames(refusedAfter(false))));
    const { parts, error } = await drain(anthropicAdapter.stream(trustRequest, callOptions(fetch)));
    expect(error).toBeUndefined();
    expect(parts.flatMap((p) => (p.type === 'delta' ? [p.delta.delta] : []))).toEqual([
      { type: 'refusal', text: 'Declined: cyber harm.' },
    ]);
    expect(parts.at(-1)).toMatchObject({
      type: 'finish',
      finish_reason: 'content_filter',
      raw_finish_reason: 'refusal',
    });
  });

  it('stays a content_filter failure with emitted_deltas when text was already streamed', async () => {
    const { fetch } = fakeFetch(() => sseResponse(sseFrames(refusedAfter(true))));
    const { error } = await drain(anthropicAdapter.stream(trustRequest, callOptions(fetch)));
    expect(error).toMatchObject({ kind: 'content_filter', provider_code: 'refusal', emitted_deltas: true });
  });
});

describe('anthropic adapter: failures', () => {
  const table: [string, number, unknown, Record<string, string>, Record<string, unknown>][] = [
    [
      'overloaded_error on 529',
      529,
      overloaded,
      {},
      { kind: 'overloaded', provider_code: 'overloaded_error' },
    ],
    ['a prompt that is too long', 400, tooLong, {}, { kind: 'context_overflow' }],
    ['a bad key', 401, authError, {}, { kind: 'auth' }],
    [
      'a rate limit with retry-after',
      429,
      rateLimit,
      { 'retry-after': '7' },
      { kind: 'rate_limited', retry_after_ms: 7000 },
    ],
    [
      'a spend limit on 429',
      429,
      spendLimit,
      {},
      { kind: 'quota_exhausted', provider_code: 'enforced_spend_limit_reached' },
    ],
    [
      'api_error on 500',
      500,
      { type: 'error', error: { type: 'api_error', message: 'Internal server error' } },
      { 'request-id': 'req_9' },
      { kind: 'server', request_id: 'req_9' },
    ],
  ];
  it.each(table)('classifies %s', async (_name, status, body, headers, expected) => {
    const { fetch } = fakeFetch(() => jsonResponse(body, status, headers));
    const error = await rejection(anthropicAdapter.generate(trustRequest, callOptions(fetch)));
    expect(error).toMatchObject({ ...expected, status, provider: 'anthropic', dispatch: 'sent' });
  });

  it('reads rate-limit reset headers when Retry-After is absent', async () => {
    const reset = new Date(Date.now() + 5000).toISOString();
    const { fetch } = fakeFetch(() =>
      jsonResponse(rateLimit, 429, {
        'anthropic-ratelimit-requests-remaining': '0',
        'anthropic-ratelimit-requests-reset': reset,
      }),
    );
    const error = await rejection(anthropicAdapter.generate(trustRequest, callOptions(fetch)));
    expect(error.retry_after_ms).toBeGreaterThan(3000);
    expect(error.retry_after_ms).toBeLessThanOrEqual(5000);
  });

  it('classifies an in-band overloaded_error event mid-answer, with emitted_deltas', async () => {
    const frames = sseFrames(textSse).slice(0, 5);
    frames.push(`event: error\ndata: ${JSON.stringify(overloaded)}\n\n`);
    const { fetch } = fakeFetch(() => sseResponse(frames));
    const { parts, error } = await drain(anthropicAdapter.stream(trustRequest, callOptions(fetch)));
    expect(streamedText(parts)).toBe('Hello! I');
    expect(parts.some((part) => part.type === 'finish')).toBe(false);
    expect(error).toMatchObject({ kind: 'overloaded', dispatch: 'streaming', emitted_deltas: true });
  });

  it('never finishes a stream without message_stop', async () => {
    const { fetch } = fakeFetch(() => sseResponse(sseFrames(textSse).slice(0, -1)));
    const { error } = await drain(anthropicAdapter.stream(trustRequest, callOptions(fetch)));
    expect(error).toMatchObject({ kind: 'invalid_response', emitted_deltas: true });
  });

  it('fails auth before sending when no key is configured', async () => {
    const { fetch, calls } = fakeFetch(() => jsonResponse(textJson));
    const error = await rejection(
      anthropicAdapter.generate(trustRequest, callOptions(fetch, { apiKey: undefined })),
    );
    expect(error).toMatchObject({ kind: 'auth', dispatch: 'not_sent' });
    expect(calls).toHaveLength(0);
  });
});
