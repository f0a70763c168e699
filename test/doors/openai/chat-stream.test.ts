import { describe, expect, it } from 'vitest';
import { reasonResponseSchema } from '../../../src/contracts/reason-response';
import { createKey } from '../../helpers/api';
import { catalogOf, simModel } from '../../helpers/catalog-fixtures';
import { doorCall, type Frame, framesOf } from './door-calls';

// The chat stream contract: OpenAI's chunk shapes, nothing before the first content, tool calls whole,
// the usage chunk, `valve` on the finish and usage chunks, and how a failure ends the stream.

interface Chunk {
  id: string;
  object: string;
  model: string;
  choices: { index: number; delta: Record<string, unknown>; finish_reason: string | null }[];
  usage?: Record<string, unknown> | null;
  valve?: unknown;
}

const chunks = (frames: Frame[]) =>
  frames.filter((f) => f.json !== undefined).map((f) => f.json as unknown as Chunk);
const text = (list: Chunk[]) => list.map((c) => c.choices[0]?.delta.content ?? '').join('');
const ask = { messages: [{ role: 'user', content: 'Say hello.' }], stream: true };

describe('POST /openai/v1/chat/completions with stream: true', () => {
  it('sends chat.completion.chunk data lines: role first, the text, a finish chunk with valve, then [DONE]', async () => {
    const { key } = await createKey('door-stream');
    const { res } = await doorCall(catalogOf([simModel('s')]), key, '/chat/completions', {
      model: 'auto',
      ...ask,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(res.headers.get('x-request-id')).toMatch(/.+/);
    const frames = await framesOf(res);
    expect(frames.every((f) => f.event === undefined)).toBe(true);
    expect(frames.at(-1)?.data).toBe('[DONE]');
    const list = chunks(frames);
    expect(list[0]?.choices[0]?.delta).toEqual({ role: 'assistant', content: '' });
    const finish = list.at(-1) as Chunk;
    expect(finish.choices[0]).toMatchObject({ delta: {}, finish_reason: 'stop' });
    const valve = reasonResponseSchema.parse(finish.valve);
    expect(text(list)).toBe((valve.output as { text: string }).text);
    expect(new Set(list.map((c) => c.id))).toEqual(new Set([`chatcmpl-${valve.receiptId}`]));
    expect(res.headers.get('x-valve-receipt-id')).toBe(valve.receiptId);
    expect(list.every((c) => c.object === 'chat.completion.chunk' && c.model === 'sim/s')).toBe(true);
    expect(list.some((c) => 'usage' in c)).toBe(false);
  });

  it('ends with a choices: [] usage chunk carrying valve when include_usage is set', async () => {
    const { key } = await createKey('chat-stream-usage');
    const { res } = await doorCall(catalogOf([simModel('s')]), key, '/chat/completions', {
      model: 'auto',
      ...ask,
      stream_options: { include_usage: true },
    });
    const list = chunks(await framesOf(res));
    const last = list.at(-1) as Chunk;
    expect(last.choices).toEqual([]);
    const valve = reasonResponseSchema.parse(last.valve);
    expect(last.usage).toEqual({
      prompt_tokens: valve.usage.inputTokens,
      completion_tokens: valve.usage.outputTokens,
      total_tokens: valve.usage.inputTokens + valve.usage.outputTokens,
      prompt_tokens_details: { cached_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0 },
    });
    expect(list.slice(0, -1).every((c) => c.usage === null)).toBe(true);
    expect((list.at(-2) as Chunk).valve).toEqual(last.valve);
  });

  it('emits each tool call whole, with index, id, type, name and arguments, after Valve validated it', async () => {
    const { key } = await createKey('door-tools');
    const { res } = await doorCall(catalogOf([simModel('s')]), key, '/chat/completions', {
      model: 'auto',
      stream: true,
      messages: [{ role: 'user', content: 'Call lookup.' }],
      tools: [
        {
          type: 'function',
          function: {
            name: 'lookup',
            parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
          },
        },
      ],
    });
    const list = chunks(await framesOf(res));
    const calls = list.flatMap(
      (c) => (c.choices[0]?.delta.tool_calls as Record<string, unknown>[] | undefined) ?? [],
    );
    expect(calls).toHaveLength(1);
    const call = calls[0] as {
      index: number;
      id: string;
      type: string;
      function: { name: string; arguments: string };
    };
    expect(call).toMatchObject({ index: 0, type: 'function', function: { name: 'lookup' } });
    const valve = reasonResponseSchema.parse((list.at(-1) as Chunk).valve);
    expect(call.id).toBe(valve.toolCalls[0]?.id);
    expect(JSON.parse(call.function.arguments)).toEqual(valve.toolCalls[0]?.arguments);
    expect((list.at(-1) as Chunk).choices[0]?.finish_reason).toBe('tool_calls');
  });

  it('answers a failure before any content as a plain HTTP error in OpenAI’s shape', async () => {
    const { key } = await createKey('door-early');
    // A bad key opens its provider's circuit: the model has a provider of its own.
    const catalog = catalogOf([
      simModel('down', { provider: 'sim-keyless', simulate: { failWith: 'auth' } }),
    ]);
    const { res } = await doorCall(catalog, key, '/chat/completions', { model: 'auto', ...ask });
    expect(res.status).toBe(502);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(res.headers.get('x-should-retry')).toBe('false');
    expect(((await res.json()) as { error: { code: string; type: string } }).error).toMatchObject({
      code: 'model.auth',
      type: 'server_error',
    });
  });

  it('ends a stream cut after content with an error chunk and no [DONE]', async () => {
    const { key } = await createKey('door-cut');
    const catalog = catalogOf([simModel('cut', { simulate: { failAfterChunks: 3 } })]);
    const { res } = await doorCall(catalog, key, '/chat/completions', { model: 'auto', ...ask });
    expect(res.status).toBe(200);
    const frames = await framesOf(res);
    expect(frames.some((f) => f.data === '[DONE]')).toBe(false);
    const last = frames.at(-1)?.json as { error?: { type: string; code: string; message: string } };
    expect(last.error).toMatchObject({ type: 'server_error', code: 'model.network' });
    expect(text(chunks(frames.slice(0, -1)))).not.toBe('');
  });

  it('replays a streamed answer for the same valve.receiptId with the same text and id', async () => {
    const { key } = await createKey('door-replay');
    const body = {
      model: 'auto',
      ...ask,
      valve: {
        receiptId: '9a0e2a6c-5b1d-4c8e-9a7f-0123456789ab',
        receiptSalt: 'c2FsdC1zYWx0LXNhbHQtc2FsdC1zYWx0LXNhbHQtc2FsdC1zYWx0',
      },
    };
    const catalog = catalogOf([simModel('s')]);
    const first = chunks(await framesOf((await doorCall(catalog, key, '/chat/completions', body)).res));
    const again = chunks(await framesOf((await doorCall(catalog, key, '/chat/completions', body)).res));
    expect(text(again)).toBe(text(first));
    expect(again[0]?.id).toBe('chatcmpl-9a0e2a6c-5b1d-4c8e-9a7f-0123456789ab');
    expect((again.at(-1) as Chunk).valve).toEqual((first.at(-1) as Chunk).valve);
  });
});
