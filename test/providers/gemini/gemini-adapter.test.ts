import { describe, expect, it } from 'vitest';
import { geminiAdapter } from '../../../src/providers/gemini/gemini-adapter';
import retryInfo from '../../fixtures/providers/gemini/error-429-retry-info.json';
import keyInvalid from '../../fixtures/providers/gemini/error-api-key-invalid.json';
import tokenLimit from '../../fixtures/providers/gemini/error-token-limit.json';
import unavailable from '../../fixtures/providers/gemini/error-unavailable.json';
import promptBlocked from '../../fixtures/providers/gemini/prompt-blocked.json';
import safetyFinish from '../../fixtures/providers/gemini/safety-finish.json';
import textJson from '../../fixtures/providers/gemini/text.json';
import textSse from '../../fixtures/providers/gemini/text.sse.json';
import toolCall from '../../fixtures/providers/gemini/tool-call.json';
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

describe('gemini adapter: the request sent', () => {
  it('puts trusted text only in systemInstruction and untrusted text only in a user turn', async () => {
    const { fetch, calls } = fakeFetch(() => jsonResponse(textJson));
    await geminiAdapter.generate(trustRequest, callOptions(fetch, { model: 'gemini-2.5-flash' }));
    expect(calls[0]?.url).toBe(
      'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent',
    );
    expect(calls[0]?.headers['x-goog-api-key']).toBe('sk-test');
    expect(calls[0]?.body).toEqual({
      systemInstruction: { parts: [{ text: trustedText }] },
      contents: [{ role: 'user', parts: [{ text: untrustedText }] }],
      generationConfig: { maxOutputTokens: 256, temperature: 0.2 },
    });
  });

  it('asks for JSON with responseMimeType and a responseSchema without unsupported keywords', () => {
    const schema = {
      $schema: 'x',
      type: 'object',
      properties: { a: { type: 'string' } },
      additionalProperties: false,
    };
    const body = geminiAdapter.toWireBody?.({ ...trustRequest, output: { schema } }, callOptions(fetch)) as {
      generationConfig: Record<string, unknown>;
    };
    expect(body.generationConfig).toMatchObject({
      responseMimeType: 'application/json',
      responseSchema: { type: 'object', properties: { a: { type: 'string' } } },
    });
  });

  it('maps tools and a named tool choice', () => {
    const body = geminiAdapter.toWireBody?.(
      {
        ...trustRequest,
        tools: [{ name: 'weather', input_schema: { type: 'object' } }],
        tool_choice: { name: 'weather' },
      },
      callOptions(fetch),
    ) as Record<string, unknown>;
    expect(body.tools).toEqual([
      { functionDeclarations: [{ name: 'weather', parameters: { type: 'object' } }] },
    ]);
    expect(body.toolConfig).toEqual({
      functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['weather'] },
    });
  });

  it('streams from streamGenerateContent?alt=sse', async () => {
    const { fetch, calls } = fakeFetch(() => sseResponse(sseFrames(textSse)));
    await drain(geminiAdapter.stream(trustRequest, callOptions(fetch, { model: 'm' })));
    expect(calls[0]?.url).toBe(
      'https://generativelanguage.googleapis.com/v1beta/models/m:streamGenerateContent?alt=sse',
    );
  });
});

describe('gemini adapter: the answer', () => {
  it('parses text with thoughts counted as reasoning and output tokens', async () => {
    const { fetch } = fakeFetch(() => jsonResponse(textJson));
    expect(await geminiAdapter.generate(trustRequest, callOptions(fetch))).toEqual({
      message: {
        role: 'assistant',
        content: [
          { type: 'text', text: textJson.candidates[0]?.content.parts[0]?.text },
          // The signature that came with the text is kept, to be sent back with the turn.
          { type: 'reasoning', signature: textJson.candidates[0]?.content.parts[0]?.thoughtSignature },
        ],
      },
      usage: { input_tokens: 9, output_tokens: 28 + 244, cache_read_tokens: 0, reasoning_tokens: 244 },
      finish_reason: 'stop',
      raw_finish_reason: 'STOP',
      model: 'gemini-3-pro-preview',
    });
  });

  it('reports a function call as tool_calls though Gemini says STOP, with cached tokens', async () => {
    const { fetch } = fakeFetch(() => jsonResponse(toolCall));
    const response = await geminiAdapter.generate(trustRequest, callOptions(fetch));
    expect(response.message.content).toEqual([
      // The call's thought signature, tied to the call it must be sent back on.
      { type: 'reasoning', signature: 'EskgCsYgAb4+9vtF7/499YQS2bjZs3xcQI', call_id: 'call_0' },
      { type: 'tool_call', id: 'call_0', name: 'weather', args: { location: 'San Francisco' } },
    ]);
    expect(response.finish_reason).toBe('tool_calls');
    expect(response.raw_finish_reason).toBe('STOP');
    expect(response.usage.cache_read_tokens).toBe(16);
  });

  it('answers a blocked prompt and a SAFETY finish as refusals that name the reason', async () => {
    const blocked = fakeFetch(() => jsonResponse(promptBlocked));
    const prompt = await geminiAdapter.generate(trustRequest, callOptions(blocked.fetch));
    expect(prompt).toMatchObject({
      message: { content: [{ type: 'refusal', refusal: 'gemini declined to answer (PROHIBITED_CONTENT).' }] },
      finish_reason: 'content_filter',
      raw_finish_reason: 'PROHIBITED_CONTENT',
      usage: { input_tokens: 9 },
    });
    const safety = fakeFetch(() => jsonResponse(safetyFinish));
    const answer = await geminiAdapter.generate(
      { ...trustRequest, output: { schema: { type: 'object' } } },
      callOptions(safety.fetch),
    );
    expect(answer).toMatchObject({
      message: { content: [{ type: 'refusal', refusal: 'gemini declined to answer (SAFETY).' }] },
      finish_reason: 'content_filter',
      raw_finish_reason: 'SAFETY',
    });
  });

  it('still fails with content_filter on a RECITATION finish, which cuts an answer rather than refuse it', async () => {
    const body = structuredClone(safetyFinish);
    (body.candidates[0] as { finishReason: string }).finishReason = 'RECITATION';
    const { fetch } = fakeFetch(() => jsonResponse(body));
    expect(await rejection(geminiAdapter.generate(trustRequest, callOptions(fetch)))).toMatchObject({
      kind: 'content_filter',
      provider_code: 'RECITATION',
    });
  });

  it('streams a blocked prompt as a refusal delta and a content_filter finish', async () => {
    const { fetch } = fakeFetch(() => sseResponse(sseFrames({ events: [{ data: promptBlocked }] })));
    const { parts, error } = await drain(geminiAdapter.stream(trustRequest, callOptions(fetch)));
    expect(error).toBeUndefined();
    expect(parts).toMatchObject([
      {
        type: 'delta',
        delta: { delta: { type: 'refusal', text: 'gemini declined to answer (PROHIBITED_CONTENT).' } },
      },
      { type: 'finish', finish_reason: 'content_filter', raw_finish_reason: 'PROHIBITED_CONTENT' },
    ]);
  });

  it('maps an unknown finish reason to other', async () => {
    const body = structuredClone(textJson);
    (body.candidates[0] as { finishReason: string }).finishReason = 'SOMETHING_NEW';
    const { fetch } = fakeFetch(() => jsonResponse(body));
    expect((await geminiAdapter.generate(trustRequest, callOptions(fetch))).finish_reason).toBe('other');
  });

  it('streams text and finishes when the body ends after a finishReason', async () => {
    const { fetch } = fakeFetch(() => sseResponse(sseFrames(textSse)));
    const { parts, error } = await drain(geminiAdapter.stream(trustRequest, callOptions(fetch)));
    expect(error).toBeUndefined();
    expect(streamedText(parts)).toBe('There are **3** "r"s in strawberry.\n\nst**r**awbe**rr**y');
    expect(parts.at(-1)).toMatchObject({
      type: 'finish',
      finish_reason: 'stop',
      usage: { input_tokens: 9, output_tokens: 208 },
    });
  });
});

describe('gemini adapter: failures', () => {
  const table: [string, number, unknown, Record<string, unknown>][] = [
    [
      'RESOURCE_EXHAUSTED with RetryInfo',
      429,
      retryInfo,
      { kind: 'rate_limited', retry_after_ms: 34_400, provider_code: 'RESOURCE_EXHAUSTED' },
    ],
    ['an invalid API key on 400', 400, keyInvalid, { kind: 'auth' }],
    ['an input over the token limit', 400, tokenLimit, { kind: 'context_overflow' }],
    ['UNAVAILABLE', 503, unavailable, { kind: 'overloaded' }],
    [
      'a daily quota',
      429,
      {
        error: {
          code: 429,
          message: 'Quota exceeded',
          status: 'RESOURCE_EXHAUSTED',
          details: [
            {
              '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
              violations: [{ quotaId: 'GenerateRequestsPerDayPerProjectPerModel' }],
            },
          ],
        },
      },
      { kind: 'quota_exhausted' },
    ],
  ];
  it.each(table)('classifies %s', async (_name, status, body, expected) => {
    const { fetch } = fakeFetch(() => jsonResponse(body, status));
    expect(await rejection(geminiAdapter.generate(trustRequest, callOptions(fetch)))).toMatchObject({
      ...expected,
      status,
      provider: 'gemini',
      dispatch: 'sent',
    });
  });

  it('never finishes a stream cut before any finishReason', async () => {
    const { fetch } = fakeFetch(() => sseResponse(sseFrames(textSse).slice(0, 2)));
    const { parts, error } = await drain(geminiAdapter.stream(trustRequest, callOptions(fetch)));
    expect(parts.some((part) => part.type === 'finish')).toBe(false);
    expect(error).toMatchObject({ kind: 'invalid_response', dispatch: 'streaming', emitted_deltas: true });
  });
});
