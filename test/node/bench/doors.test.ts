import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reasonBody, startUpstream } from '../../../bench/lib/bench-servers.js';
import { benchCatalog } from '../../../bench/lib/catalog.js';
import {
  anthropicDoorBody,
  doorAbsent,
  doorAnswerProblem,
  doorRows,
  doorsMarkdown,
  doorTargets,
  openaiDoorBody,
} from '../../../bench/lib/doors.js';
import type { LoadResult } from '../../../bench/lib/load.js';
import { countRoundTrips } from '../../../bench/lib/round-trips.js';
import { messagesRequestSchema } from '../../../src/doors/anthropic/messages-request';
import { chatRequestSchema } from '../../../src/doors/openai/chat-request';
import { type RunningValve, startValve } from '../helpers/start-valve';

// The bench's scenario of the three entrances: the same ask through /v1/reason, the OpenAI door and
// the Anthropic door, each door's figures beside /v1/reason's. Checked here for what it sends and how
// it reports, and against the real Worker on the bench's catalog; its speed is measured only in
// `npm run bench`.

const root = join(import.meta.dirname, '../../..');

describe('the same ask through each entrance', () => {
  it('is a valid body at each door, with /v1/reason’s instruction, ticket and policy', () => {
    const reason = JSON.parse(reasonBody());
    for (const stream of [false, true]) {
      const openai = chatRequestSchema.parse(JSON.parse(openaiDoorBody(stream)));
      const anthropic = messagesRequestSchema.parse(JSON.parse(anthropicDoorBody(stream)));
      expect(openai.messages).toEqual([
        { role: 'system', content: reason.instructions },
        { role: 'user', content: reason.context[0].content },
      ]);
      expect(anthropic.system).toBe(reason.instructions);
      expect(anthropic.messages).toEqual([{ role: 'user', content: reason.context[0].content }]);
      expect(openai.valve?.modelPolicy).toEqual(reason.modelPolicy);
      expect(anthropic.valve?.modelPolicy).toEqual(reason.modelPolicy);
      expect([openai.stream ?? false, anthropic.stream ?? false]).toEqual([stream, stream]);
    }
  });

  it('tells a build without the door (Valve’s own 404) from the door’s own 404', () => {
    expect(doorAbsent(404, '{"error":{"code":"request.not_found","message":"No endpoint POST /x."}}')).toBe(
      true,
    );
    expect(
      doorAbsent(404, '{"type":"error","error":{"type":"not_found_error","message":"The model …"}}'),
    ).toBe(false);
    expect(doorAbsent(200, '{}')).toBe(false);
  });
});

const result = (rps: number, p50: number, p99: number, offeredRate: number | null = 200): LoadResult => ({
  requests: rps * 4,
  rps,
  ok: rps * 4,
  non2xx: 0,
  errors: 0,
  timeouts: 0,
  durationS: 4,
  offeredRate,
  connections: 16,
  latencyMs: { count: rps * 4, mean: p50, p50, p90: p99 / 2, p99, max: p99 * 2, percentiles: {} },
});

const trips = (perRequest: Record<string, number>) => ({
  instrumented: true as const,
  failures: 0,
  samples: 10,
  median: 1,
  p90: 1,
  mean: 1,
  max: 1,
  perRequest,
});

describe('doorRows', () => {
  const measured = {
    max: {
      valve: { ...result(900, 15, 34, null), rounds: [950, 850] },
      door: { ...result(720, 21, 52, null), rounds: [700, 740] },
    },
    fixed: { direct: result(200, 1, 7), valve: result(200, 4, 45), door: result(150, 4.5, 49) },
    cpuMsPerRequest: { valve: 1.1, door: 1.4 },
    trips: { valve: trips({ 'do:log': 1 }), door: trips({ 'do:log': 1 }) },
    ttfbP50: { direct: 0.2, valve: 2.4, door: 2.8 },
    status: { door: 'measured' as const, anthropic: 'absent' as const },
  };

  it('gives each door’s figures beside /v1/reason’s from the same run', () => {
    const [reason, door, anthropic] = doorRows(measured);
    expect(reason).toMatchObject({
      path: '/v1/reason',
      rps: 900,
      addedOverDirect: { p50: 3, p99: 38 },
      addedOverReason: { p50: null, p99: null },
      cpuOverReasonMs: null,
    });
    expect(door).toMatchObject({
      path: '/openai/v1/chat/completions',
      status: 'measured',
      rps: 720,
      rpsOverReason: 0.8,
      addedOverDirect: { p50: 3.5, p99: 42 },
      addedOverReason: { p50: 0.5, p99: 4 },
      cpuMs: 1.4,
      cpuOverReasonMs: 0.3,
      ttfbOverReasonMs: 0.4,
      behind: 150,
    });
    expect(door?.trips?.instrumented && door.trips.perRequest).toEqual({ 'do:log': 1 });
    expect(anthropic).toMatchObject({ path: '/anthropic/v1/messages', status: 'absent', rps: null });
  });

  it('writes a row per entrance, a door absent from the build said so', () => {
    const lines = doorsMarkdown(doorRows(measured), 200);
    const row = (start: string) => lines.find((l) => l.startsWith(start));
    expect(row('| `POST /v1/reason` |')).toBe(
      '| `POST /v1/reason` | 900 [950, 850] | 4 / 45 ms | 3 / 38 ms | — | 1.1 ms | p90 1, mean 1, max 1 (do:log 1) | 2.4 ms |',
    );
    expect(row('| OpenAI door')).toBe(
      '| OpenAI door (`/openai/v1/chat/completions`) | 720 (0.8×) [700, 740] | 4.5 / 49 ms (answered 150/s) | 3.5 / 42 ms | +0.5 / +4 ms | 1.4 ms (+0.3 ms) | p90 1, mean 1, max 1 (do:log 1) | 2.8 ms (+0.4 ms) |',
    );
    expect(row('| Anthropic door')).toBe(
      '| Anthropic door (`/anthropic/v1/messages`) | not present (404) | — | — | — | — | — | — |',
    );
  });
});

describe('the entrances on the real Worker, on the bench’s catalog', () => {
  let upstream: { info: Record<string, unknown>; stop: () => Promise<void> };
  let valve: RunningValve;

  beforeAll(async () => {
    upstream = await startUpstream(root);
    valve = await startValve({
      catalog: benchCatalog(String(upstream.info.url)),
      vars: { OPENAI_API_KEY: 'bench-key' },
    });
  }, 120_000);

  afterAll(async () => {
    await valve?.stop();
    await upstream?.stop();
  });

  it('answers each door in its own shape, JSON and streamed, with its round trips counted', async () => {
    const targets = doorTargets(valve.url, valve.key);
    for (const name of ['door', 'anthropic'] as const) {
      const target = targets[name];
      const res = await fetch(target.url, { method: 'POST', headers: target.headers, body: target.body });
      expect(doorAnswerProblem(name, res.status, res.headers, await res.text())).toBe('');

      const body = name === 'door' ? openaiDoorBody(true) : anthropicDoorBody(true);
      const streamed = await fetch(target.url, { method: 'POST', headers: target.headers, body });
      expect(streamed.status).toBe(200);
      expect(streamed.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(await streamed.text()).toContain(name === 'door' ? 'data: [DONE]' : 'event: message_stop');

      const counted = await countRoundTrips(() => target, 3);
      expect(counted).toMatchObject({ instrumented: true, failures: 0, samples: 3 });
      expect(Object.keys(counted.perRequest ?? {})).toContain('do:log');
    }
  });
});
