import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Catalog } from '../../src/policy/catalog';
import textSse from '../fixtures/providers/openai/text.sse.json';
import { createKey } from '../helpers/api';
import { simModel } from '../helpers/catalog-fixtures';
import { checkStreamOrder, parseSse } from '../helpers/check-stream-order';
import { streamWithCatalog } from '../helpers/stream-call';
import { sseFrames, sseResponse } from '../providers/fake-fetch';

// An OpenAI-compatible upstream through the route. Frames of the recorded stream: 1–4 the text,
// 5 the finish reason, 6 usage, 7 [DONE].

const catalog: Catalog = {
  providers: [
    { id: 'compat', kind: 'openai', apiKeyEnv: 'PROVIDER_COMPAT_KEY', baseUrl: 'https://compat.test/v1' },
  ],
  models: [simModel('compat-model', { provider: 'compat', simulate: undefined })],
};

afterEach(() => {
  vi.restoreAllMocks();
});

async function streamWith(frames: string[]) {
  vi.spyOn(globalThis, 'fetch').mockImplementation(async () => sseResponse(frames));
  const { key } = await createKey('compat-streams', ['reason']);
  const { res, settled } = await streamWithCatalog(
    catalog,
    key,
    { task: 'summarize', instructions: 'Summarize.', modelPolicy: { allowFallback: false } },
    'text/event-stream',
    { PROVIDER_COMPAT_KEY: 'sk-compat' },
  );
  expect(res.status).toBe(200);
  const events = parseSse(await res.text());
  await settled();
  expect(checkStreamOrder(events)).toEqual([]);
  return events;
}

describe('stream completeness is the finish reason, not the terminator', () => {
  it('completes a stream that sent its finish reason and usage but no data: [DONE], with a warning', async () => {
    const events = await streamWith(sseFrames(textSse).slice(0, -1));
    const last = events[events.length - 1] as {
      type: string;
      response: { output: { text: string }; usage: { outputTokens: number }; warnings: { code: string }[] };
    };
    expect(last.type).toBe('response.completed');
    expect(last.response.output.text).toBe('**Holiday Name:**');
    expect(last.response.usage.outputTokens).toBeGreaterThan(0);
    expect(last.response.warnings.map((w) => w.code)).toContain('model.stream_unterminated');
  });

  it('reports a stream that ends without a finish reason as truncated', async () => {
    const events = await streamWith(sseFrames(textSse).slice(0, 5));
    const last = events[events.length - 1] as { type: string; error: { code: string } };
    expect(last.type).toBe('response.error');
    expect(last.error.code).toBe('model.invalid_response');
  });
});
