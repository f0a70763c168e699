import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelAdapter } from '../../../src/model/model-adapter';
import type { ModelError } from '../../../src/model/model-error';
import type { ModelRequest } from '../../../src/model/model-request';
import type { StreamPart } from '../../../src/model/model-response';
import { anthropicAdapter } from '../../../src/providers/anthropic/anthropic-adapter';
import { geminiAdapter } from '../../../src/providers/gemini/gemini-adapter';
import { readModelError } from '../../../src/providers/model-error';
import { openaiAdapter } from '../../../src/providers/openai/openai-adapter';
import {
  type Behaviour,
  type FakeUpstream,
  fixture,
  sseFixture,
  startFakeUpstream,
} from '../fake-upstream/fake-upstream';

// Each adapter's stream() over a real socket to the fake upstream: the faults a mocked fetch cannot
// imitate (a reset socket, silence, a stall, a cut) end as classified failures, never as a finish.

let upstream: FakeUpstream;
beforeAll(async () => {
  upstream = await startFakeUpstream();
});
afterAll(async () => {
  await upstream?.close();
});

const request: ModelRequest = {
  messages: [
    { role: 'system', content: [{ type: 'text', text: 'Be brief.' }] },
    { role: 'user', content: [{ type: 'text', text: 'Hello?' }] },
  ],
  settings: { max_tokens: 64 },
};

const kinds: [string, ModelAdapter, string, string][] = [
  ['openai', openaiAdapter, 'openai/text.sse.json', '**Holiday Name:**'],
  [
    'anthropic',
    anthropicAdapter,
    'anthropic/text.sse.json',
    "Hello! I'm doing well, thank you for asking. How are you doing today?",
  ],
  [
    'gemini',
    geminiAdapter,
    'gemini/text.sse.json',
    'There are **3** "r"s in strawberry.\n\nst**r**awbe**rr**y',
  ],
];

let routeCounter = 0;
async function run(adapter: ModelAdapter, behaviour: Behaviour, idleTimeoutMs?: number, deadlineMs = 3000) {
  const route = `r${routeCounter++}`;
  upstream.script(route, [behaviour]);
  const parts: StreamPart[] = [];
  let error: ModelError | undefined;
  const began = performance.now();
  try {
    const stream = adapter.stream(request, {
      model: 'm',
      signal: AbortSignal.timeout(deadlineMs),
      fetch: (input, init) => fetch(input, init),
      apiKey: 'test',
      baseUrl: `${upstream.url}/${route}/v1`,
      idleTimeoutMs,
    });
    for await (const part of stream) parts.push(part);
  } catch (caught) {
    error = readModelError(caught);
    if (!error) throw caught;
  }
  const text = parts
    .map((p) => (p.type === 'delta' && p.delta.delta.type === 'text' ? p.delta.delta.text : ''))
    .join('');
  return {
    parts,
    error,
    text,
    ms: performance.now() - began,
    finished: parts.some((p) => p.type === 'finish'),
  };
}

describe.each(kinds)('%s stream() over a real socket', (_kind, adapter, sse, wholeText) => {
  const frames = sseFixture(sse);

  it('replays the recorded stream to one finish', async () => {
    const result = await run(adapter, { type: 'sse', frames });
    expect(result.error).toBeUndefined();
    expect(result.text).toBe(wholeText);
    expect(result.parts.filter((p) => p.type === 'finish')).toHaveLength(1);
  });

  it('waits out a slow first token', async () => {
    const result = await run(adapter, { type: 'sse', frames, firstByteDelayMs: 300 }, 1000);
    expect(result.finished).toBe(true);
    expect(result.ms).toBeGreaterThanOrEqual(300);
  });

  it('reports a reset before headers as network, sent, nothing emitted', async () => {
    const result = await run(adapter, { type: 'reset' });
    expect(result.error).toMatchObject({ kind: 'network', dispatch: 'sent', emitted_deltas: false });
  });

  it('ends an accepted but silent request with timeout after the idle limit', async () => {
    const result = await run(adapter, { type: 'hang' }, 300);
    expect(result.error).toMatchObject({ kind: 'timeout', dispatch: 'sent', emitted_deltas: false });
    expect(result.ms).toBeLessThan(1500);
  });

  it('reports a stream cut mid-answer as network with emitted deltas, never a finish', async () => {
    const result = await run(adapter, { type: 'sse', frames, cutAfter: frames.length - 2 });
    expect(result.finished).toBe(false);
    expect(result.error).toMatchObject({ kind: 'network', dispatch: 'streaming', emitted_deltas: true });
  });

  it('ends a stalled stream with timeout, never a finish', async () => {
    const result = await run(adapter, { type: 'sse', frames, stallAfter: 2 }, 300);
    expect(result.finished).toBe(false);
    expect(result.error).toMatchObject({ kind: 'timeout', dispatch: 'streaming' });
    expect(result.ms).toBeLessThan(1500);
  });

  it('reports a malformed chunk as invalid_response', async () => {
    const result = await run(adapter, {
      type: 'sse',
      frames: [...frames.slice(0, 2), 'data: {"broken":\n\n', ...frames.slice(2)],
    });
    expect(result.finished).toBe(false);
    expect(result.error).toMatchObject({ kind: 'invalid_response', dispatch: 'streaming' });
  });

  it('reports a stream that ends without a finish reason as invalid_response', async () => {
    // openai/text.sse.json: frames 1–4 the text, 5 the finish reason, 6 usage, 7 [DONE].
    const cut = sse.startsWith('gemini')
      ? frames.slice(0, 2)
      : sse.startsWith('openai')
        ? frames.slice(0, 5)
        : frames.slice(0, -1);
    const result = await run(adapter, { type: 'sse', frames: cut });
    expect(result.finished).toBe(false);
    expect(result.error).toMatchObject({
      kind: 'invalid_response',
      dispatch: 'streaming',
      emitted_deltas: true,
    });
  });

  it('stops at the caller’s deadline', async () => {
    const result = await run(adapter, { type: 'hang' }, undefined, 400);
    expect(result.error).toMatchObject({ kind: 'timeout' });
    expect(result.ms).toBeLessThan(1500);
  });
});

describe('in-band stream errors over a real socket', () => {
  it('classifies Anthropic’s overloaded_error event after content', async () => {
    const frames = sseFixture('anthropic/text.sse.json').slice(0, 5);
    frames.push(`event: error\ndata: ${JSON.stringify(fixture('anthropic/error-overloaded.json'))}\n\n`);
    const result = await run(anthropicAdapter, { type: 'sse', frames });
    expect(result.text).toBe('Hello! I');
    expect(result.error).toMatchObject({ kind: 'overloaded', dispatch: 'streaming', emitted_deltas: true });
  });

  it('classifies an OpenAI error chunk', async () => {
    const frames = sseFixture('openai/text.sse.json').slice(0, 2);
    frames.push(`data: ${JSON.stringify(fixture('openai/error-server.json'))}\n\n`);
    const result = await run(openaiAdapter, { type: 'sse', frames });
    expect(result.error).toMatchObject({ kind: 'server', dispatch: 'streaming' });
  });
});
