import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Catalog } from '../../src/policy/catalog';
import { createKey } from '../helpers/api';
import { simModel } from '../helpers/catalog-fixtures';
import { streamWithCatalog } from '../helpers/stream-call';

// A caller that disconnects aborts the upstream request: the fake upstream sees its request's signal
// abort and its body cancelled, long before the answer it was pacing out would have ended.

const catalog: Catalog = {
  providers: [{ id: 'openai', kind: 'openai', apiKeyEnv: 'OPENAI_API_KEY' }],
  models: [simModel('gpt-slow', { provider: 'openai', simulate: undefined })],
};

function chunk(content: string): string {
  return `data: ${JSON.stringify({ id: 'c', model: 'gpt-slow', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;
}

afterEach(() => vi.restoreAllMocks());

describe('caller disconnect', () => {
  it('aborts the upstream request when the caller cancels the stream', async () => {
    const { key } = await createKey('stream-disconnect');
    const upstream = { aborted: false, cancelled: false, sent: 0 };
    let abortedAt: (() => void) | undefined;
    const gone = new Promise<void>((resolve) => {
      abortedAt = resolve;
    });
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (_input, init) => {
      init?.signal?.addEventListener('abort', () => {
        upstream.aborted = true;
        abortedAt?.();
      });
      const encoder = new TextEncoder();
      // A long answer: one word every 20 ms for 10 s.
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          if (upstream.sent++ < 500) controller.enqueue(encoder.encode(chunk(`w${upstream.sent} `)));
          else controller.close();
        },
        cancel() {
          upstream.cancelled = true;
        },
      });
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    });
    const { res, settled } = await streamWithCatalog(
      catalog,
      key,
      { task: 't', instructions: 'i' },
      'text/event-stream',
      {
        OPENAI_API_KEY: 'sk-test',
      },
    );
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain('response.created');
    await reader.cancel();
    await Promise.race([gone, new Promise((resolve) => setTimeout(resolve, 2000))]);
    expect(upstream.aborted).toBe(true);
    await settled();
    expect(upstream.sent).toBeLessThan(50);
  });
});
