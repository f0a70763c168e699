import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSse } from '../../helpers/check-stream-order';
import { sseFixture } from '../fake-upstream/fake-upstream';
import {
  arrivalsOn,
  attemptsOf,
  expectAnswered,
  type Harness,
  laneOf,
  maxLatencyMs,
  maxOutputTokens,
  reason,
  scriptLane,
  startHarness,
} from '../helpers/fault-lanes';

// A provider that sends more than any answer needs, over a real socket to the real worker: a whole
// answer that never ends, a stream whose first line never ends. Valve stops reading at its limit
// (docs/security.md), closes the connection, and another model answers; the worker never reads on
// until it runs out of memory. The fake writes no faster than the worker reads, so what it managed to
// send is what the worker took, plus what the sockets buffer.

const MiB = 1024 * 1024;
/** Far past every limit: a reader that does not stop would take all of it. */
const floodBytes = 96 * MiB;
/** What the limits let through (4 MiB of JSON, 1 MiB of one event) and generous socket buffers. */
const readAtMost = 24 * MiB;

const lanes = { json: laneOf('bigjson'), line: laneOf('endlessline') };

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness(Object.fromEntries(Object.values(lanes).map((lane) => [lane.name, {}])));
});
afterAll(async () => {
  await harness?.stop();
});

describe('a provider that never stops sending', () => {
  it('a whole answer that never ends: invalid_response once the limit is read, then the backup answers', async () => {
    const lane = lanes.json;
    const sent = { bytes: 0 };
    scriptLane(harness, lane, [
      {
        type: 'flood',
        contentType: 'application/json',
        head: '{"id":"chatcmpl-1","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"',
        unit: 'a',
        upTo: floodBytes,
        sent,
      },
    ]);
    const result = await reason(harness, lane);
    expectAnswered(result, lane, 'backup');
    expect(attemptsOf(result, lane.primary)).toEqual([['invalid_response', 0]]);
    expect(arrivalsOn(harness, lane.primary)).toBe(1);
    expect(sent.bytes).toBeLessThan(readAtMost);
  });

  it('a stream whose first line never ends: invalid_response at the event limit, then the backup streams', async () => {
    const lane = lanes.line;
    const sent = { bytes: 0 };
    scriptLane(
      harness,
      lane,
      [
        {
          type: 'flood',
          contentType: 'text/event-stream',
          head: 'data: ',
          unit: 'x',
          upTo: floodBytes,
          sent,
        },
      ],
      [{ type: 'sse', frames: sseFixture('anthropic/text.sse.json') }],
    );
    const res = await fetch(`${harness.valve.url}/v1/reason`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${harness.valve.key}`,
        'content-type': 'application/json',
        accept: 'text/event-stream',
      },
      body: JSON.stringify({
        task: 'summarize',
        instructions: 'Summarize the ticket in one sentence.',
        context: [{ trust: 'untrusted', privacy: 'internal', content: 'The printer is on fire.' }],
        modelPolicy: { maxLatencyMs, maxOutputTokens, regions: [lane.name] },
      }),
    });
    const events = parseSse(await res.text());
    const terminal = events.at(-1);
    expect(terminal?.type, JSON.stringify(terminal)).toBe('response.completed');
    const response = terminal?.response as {
      model: { provider: string };
      decision: { attempts: { provider: string; errorKind?: string }[] };
    };
    expect(response.model.provider).toBe(lane.backup);
    expect(response.decision.attempts[0]).toMatchObject({
      provider: lane.primary,
      errorKind: 'invalid_response',
    });
    expect(arrivalsOn(harness, lane.primary)).toBe(1);
    expect(sent.bytes).toBeLessThan(readAtMost);
  });
});
