import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetHealthCache } from '../../src/health/health-client';
import type { HealthSnapshot } from '../../src/health/health-types';
import type { Catalog } from '../../src/policy/catalog';
import textSse from '../fixtures/providers/openai/text.sse.json';
import { createKey } from '../helpers/api';
import { catalogOf, simModel } from '../helpers/catalog-fixtures';
import { checkStreamOrder, parseSse } from '../helpers/check-stream-order';
import { streamWithCatalog } from '../helpers/stream-call';
import { reasonWithCatalog } from '../helpers/with-catalog';
import { sseFrames } from '../providers/fake-fetch';

async function summaryOf(key: string) {
  const snapshot = (await env.MODEL_HEALTH.getByName('global').snapshot()) as HealthSnapshot;
  return snapshot.models[key];
}

afterEach(() => {
  vi.restoreAllMocks();
  resetHealthCache();
});

describe('one tenant cannot hurt another through shared health', () => {
  it('does not count timeouts of a caller’s own tight maxLatencyMs against the model', async () => {
    // A model that takes its time: the caller's 500 ms deadline ends each call, not a fault of the model.
    const catalog = catalogOf([simModel('slow-but-fine', { simulate: { latencyMs: 5_000 } })]);
    const { key } = await createKey('impatient', ['reason']);
    const body = {
      task: 'summarize',
      instructions: 'Summarize.',
      modelPolicy: { maxLatencyMs: 500, allowFallback: false },
    };
    for (let i = 0; i < 4; i++) {
      const { res, settled } = await reasonWithCatalog(catalog, key, body);
      const error = (await res.json()) as {
        error: { code: string; details: { decision: { attempts: { errorKind?: string }[] } } };
      };
      await settled();
      expect(error.error.code).toBe('model.timeout');
      expect(error.error.details.decision.attempts[0]?.errorKind).toBe('timeout');
    }
    const summary = await summaryOf('sim/slow-but-fine');
    expect(summary?.circuit ?? 'closed').toBe('closed');
    expect(summary?.errorRate ?? 0).toBe(0);
  });
});

describe('the stall limit never fails a request that has nowhere else to go', () => {
  it('waits out a silence longer than the stall limit when no fallback is planned and no deadline set', async () => {
    const catalog: Catalog = {
      providers: [
        { id: 'quiet', kind: 'openai', apiKeyEnv: 'PROVIDER_QUIET_KEY', baseUrl: 'https://quiet.test/v1' },
      ],
      models: [simModel('quiet-model', { provider: 'quiet', simulate: undefined })],
    };
    const frames = sseFrames(textSse);
    // Silent for longer than max(1.5 s, 3 × p90 first token) after the first chunk.
    const pauseMs = 1_700;
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => {
      const encoder = new TextEncoder();
      let next = 0;
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (next === 2) await new Promise((resolve) => setTimeout(resolve, pauseMs));
          const frame = frames[next++];
          if (frame === undefined) controller.close();
          else controller.enqueue(encoder.encode(frame));
        },
      });
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    });
    const { key } = await createKey('patient', ['reason']);
    const { res, settled } = await streamWithCatalog(
      catalog,
      key,
      { task: 'summarize', instructions: 'Summarize.', modelPolicy: { allowFallback: false } },
      'text/event-stream',
      { PROVIDER_QUIET_KEY: 'sk-quiet' },
    );
    const events = parseSse(await res.text());
    await settled();
    expect(checkStreamOrder(events)).toEqual([]);
    const last = events[events.length - 1] as { type: string; response?: { output: { text: string } } };
    expect(last.type).toBe('response.completed');
    expect(last.response?.output.text).toBe('**Holiday Name:**');
  });
});
