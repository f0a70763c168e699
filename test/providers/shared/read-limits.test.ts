import { describe, expect, it } from 'vitest';
import type { ModelAdapter, WorkersAiBinding } from '../../../src/model/model-adapter';
import { anthropicAdapter } from '../../../src/providers/anthropic/anthropic-adapter';
import { geminiAdapter } from '../../../src/providers/gemini/gemini-adapter';
import { openaiAdapter } from '../../../src/providers/openai/openai-adapter';
import { workersAiAdapter } from '../../../src/providers/workers-ai/workers-ai-adapter';
import anthropicText from '../../fixtures/providers/anthropic/text.json';
import geminiText from '../../fixtures/providers/gemini/text.json';
import openaiText from '../../fixtures/providers/openai/text.json';
import { callOptions, drain, fakeFetch, rejection, trustRequest } from '../fake-fetch';

// A provider that sends more than any answer needs — a whole answer of many megabytes, a stream that
// never ends, one line that never ends — costs Valve a bounded read, then fails as a provider
// failure that says so; it never holds the worker until it runs out of memory. The limits are the
// documented ones (docs/security.md):
const MiB = 1024 * 1024;
const maxJsonBodyBytes = 4 * MiB;
const maxErrorBodyBytes = 64 * 1024;
const maxStreamBytes = 32 * MiB;
const maxEventChars = MiB;

const chunkBytes = 64 * 1024;
const encoder = new TextEncoder();

/**
 * A body that sends `head`, then `unit` over and over (in 64 KiB chunks), counting what was pulled
 * from it. It stops, and aborts the call, once it has sent `giveUpAt` bytes: code that never stops
 * reading fails the test instead of hanging it.
 */
function flood(unit: string, giveUpAt: number, head = '') {
  const abort = new AbortController();
  const chunk = encoder.encode(unit.repeat(Math.max(1, Math.floor(chunkBytes / unit.length))));
  let pulled = 0;
  let headSent = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled >= giveUpAt) {
        abort.abort(new Error('the test gave up: the reader never stopped'));
        controller.close();
        return;
      }
      const next = headSent ? chunk : encoder.encode(head);
      headSent = true;
      pulled += next.byteLength;
      controller.enqueue(next);
    },
  });
  return { body, signal: abort.signal, pulled: () => pulled };
}

/** A whole answer in `format` whose text is `size` bytes long: valid, and far too large. */
function hugeAnswer(format: 'openai' | 'anthropic' | 'gemini', size: number): string {
  const marker = 'HUGE-ANSWER-TEXT';
  const template =
    format === 'openai'
      ? {
          ...openaiText,
          choices: [{ ...openaiText.choices[0], message: { role: 'assistant', content: marker } }],
        }
      : format === 'anthropic'
        ? { ...anthropicText, content: [{ type: 'text', text: marker }] }
        : {
            ...geminiText,
            candidates: [
              { ...geminiText.candidates[0], content: { role: 'model', parts: [{ text: marker }] } },
            ],
          };
  return JSON.stringify(template).replace(marker, 'a'.repeat(size));
}

const adapters: ['openai' | 'anthropic' | 'gemini', ModelAdapter][] = [
  ['openai', openaiAdapter],
  ['anthropic', anthropicAdapter],
  ['gemini', geminiAdapter],
];

describe.each(adapters)('%s: a whole answer larger than the limit', (format, adapter) => {
  it('is invalid_response that names the limit, read no further than it', async () => {
    const text = hugeAnswer(format, maxJsonBodyBytes + MiB);
    let sent = 0;
    // The body arrives in chunks, with no length announced, as a chunked answer would.
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= text.length) return controller.close();
        controller.enqueue(encoder.encode(text.slice(sent, sent + chunkBytes)));
        sent += chunkBytes;
      },
    });
    const { fetch } = fakeFetch(
      () => new Response(body, { headers: { 'content-type': 'application/json' } }),
    );
    const error = await rejection(adapter.generate(trustRequest, callOptions(fetch)));
    expect(error).toMatchObject({ kind: 'invalid_response', status: 200, dispatch: 'sent' });
    expect(error.message).toMatch(/larger than 4 MiB/);
    expect(sent).toBeLessThanOrEqual(maxJsonBodyBytes + 2 * chunkBytes);
  });

  it('is refused unread when its announced length is over the limit', async () => {
    const source = flood('a', 8 * MiB, '{"a":"');
    const { fetch } = fakeFetch(
      () =>
        new Response(source.body, {
          headers: { 'content-type': 'application/json', 'content-length': String(8 * MiB) },
        }),
    );
    const error = await rejection(
      adapter.generate(trustRequest, callOptions(fetch, { signal: source.signal })),
    );
    expect(error).toMatchObject({ kind: 'invalid_response', status: 200 });
    expect(error.message).toMatch(/larger than 4 MiB/);
    expect(source.pulled()).toBeLessThanOrEqual(2 * chunkBytes);
  });
});

describe('a failed answer with an endless body', () => {
  it('is classified from what fits in the limit, reading no more', async () => {
    const source = flood('x', 4 * MiB, '{"error":{"message":"boom","type":"server_error"}} ');
    const { fetch } = fakeFetch(() => new Response(source.body, { status: 500 }));
    const error = await rejection(
      openaiAdapter.generate(trustRequest, callOptions(fetch, { signal: source.signal })),
    );
    expect(error).toMatchObject({ kind: 'server', status: 500 });
    expect(source.pulled()).toBeLessThanOrEqual(maxErrorBodyBytes + 2 * chunkBytes);
  });
});

const sseResponse = (body: ReadableStream<Uint8Array>) =>
  new Response(body, { headers: { 'content-type': 'text/event-stream' } });

describe.each(adapters)('%s: a stream that never ends', (_format, adapter) => {
  it('one line without a newline: invalid_response at the event limit', async () => {
    const source = flood('x', 4 * maxEventChars, 'data: ');
    const { fetch } = fakeFetch(() => sseResponse(source.body));
    const { error } = await drain(
      adapter.stream(trustRequest, callOptions(fetch, { signal: source.signal })),
    );
    expect(error).toMatchObject({ kind: 'invalid_response', dispatch: 'streaming', emitted_deltas: false });
    expect(error?.message).toMatch(/event longer than 1 MiB/);
    expect(source.pulled()).toBeLessThanOrEqual(maxEventChars + 2 * chunkBytes);
  });

  it('data lines that never end their event: invalid_response at the event limit', async () => {
    const source = flood(`data: ${'y'.repeat(1000)}\n`, 4 * maxEventChars);
    const { fetch } = fakeFetch(() => sseResponse(source.body));
    const { error } = await drain(
      adapter.stream(trustRequest, callOptions(fetch, { signal: source.signal })),
    );
    expect(error).toMatchObject({ kind: 'invalid_response', dispatch: 'streaming' });
    expect(error?.message).toMatch(/event longer than 1 MiB/);
    expect(source.pulled()).toBeLessThanOrEqual(maxEventChars + 2 * chunkBytes);
  });
});

describe('a stream of small events that never ends', () => {
  it('is invalid_response at the stream limit', async () => {
    const source = flood(': keep-alive\n\n', 2 * maxStreamBytes);
    const { fetch } = fakeFetch(() => sseResponse(source.body));
    const { error } = await drain(
      openaiAdapter.stream(trustRequest, callOptions(fetch, { signal: source.signal })),
    );
    expect(error).toMatchObject({ kind: 'invalid_response', dispatch: 'streaming' });
    expect(error?.message).toMatch(/more than 32 MiB/);
    expect(source.pulled()).toBeLessThanOrEqual(maxStreamBytes + 2 * chunkBytes);
  });

  it('from the Workers AI binding too', async () => {
    const source = flood('x', 4 * maxEventChars, 'data: ');
    const ai: WorkersAiBinding = { run: async () => source.body };
    const noFetch = (() => Promise.reject(new Error('the binding, not fetch'))) as typeof fetch;
    const { error } = await drain(
      workersAiAdapter.stream(trustRequest, callOptions(noFetch, { ai, signal: source.signal })),
    );
    expect(error).toMatchObject({ kind: 'invalid_response', dispatch: 'streaming' });
    expect(source.pulled()).toBeLessThanOrEqual(maxEventChars + 2 * chunkBytes);
  });
});
