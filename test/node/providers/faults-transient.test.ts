import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Behaviour, fixture } from '../fake-upstream/fake-upstream';
import {
  arrivalsOn,
  attemptsOf,
  backoffBounds,
  decisionOf,
  expectAnswered,
  expectGaps,
  gapsOn,
  type Harness,
  laneOf,
  noUsage,
  reason,
  scriptLane,
  startHarness,
} from '../helpers/fault-lanes';

// Transient faults through the whole `POST /v1/reason` JSON path (real worker, real sockets): the
// same model is retried (at most twice) after a jittered backoff or the provider's Retry-After when it
// fits the deadline, then the next model answers. Each test has its own lane (fault-lanes.ts).

const lanes = {
  ok: laneOf('ok'),
  trust: laneOf('trust'),
  retryAfter: laneOf('retry-after'),
  retryAfterTooLong: laneOf('retry-after-long'),
  limited: laneOf('limited'),
  serverOnce: laneOf('server-once'),
  unavailable: laneOf('unavailable'),
  reset: laneOf('reset'),
};

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness(Object.fromEntries(Object.values(lanes).map((lane) => [lane.name, {}])));
});
afterAll(async () => {
  await harness?.stop();
});

const answer: Behaviour = { type: 'json', body: fixture('openai/text.json') };
const rateLimited = (headers: Record<string, string>): Behaviour => ({
  type: 'json',
  status: 429,
  body: fixture('openai/error-rate-limit.json'),
  headers,
});

describe('POST /v1/reason against real wire formats', () => {
  it('answers from the primary and names it, with the attempt’s usage and cost', async () => {
    const lane = lanes.ok;
    scriptLane(harness, lane, [answer]);
    const result = await reason(harness, lane);
    expectAnswered(result, lane, 'primary');
    expect(result.json.finishReason).toBe('stop');
    expect(attemptsOf(result, lane.primary)).toEqual([['ok', 0]]);
    expect(arrivalsOn(harness, lane.primary)).toBe(1);
    expect(arrivalsOn(harness, lane.backup)).toBe(0);
  });

  it('sends the untrusted ticket in a user turn of its own and the trusted instructions alone after it (data-turn, the default behind an OpenAI-compatible server)', async () => {
    const lane = lanes.trust;
    scriptLane(harness, lane, [answer]);
    await reason(harness, lane);
    const body = harness.upstream.arrivals(lane.primary)[0]?.body as {
      messages: { role: string; content: string }[];
    };
    expect(body.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    const [system, data, , request] = body.messages.map((m) => m.content);
    expect(system).not.toContain('The printer is on fire.');
    expect(data).toContain('The printer is on fire.');
    expect(data).not.toContain('Summarize the ticket in one sentence.');
    expect(request).toBe('Summarize the ticket in one sentence.');
  });
});

describe('transient faults, JSON path', () => {
  it('429 with Retry-After that fits: retried once, not sooner than asked, and the primary answers', async () => {
    const lane = lanes.retryAfter;
    scriptLane(harness, lane, [rateLimited({ 'retry-after': '1' }), answer]);
    const result = await reason(harness, lane);
    expectAnswered(result, lane, 'primary');
    expect(attemptsOf(result, lane.primary)).toEqual([
      ['rate_limited', 0],
      ['ok', 1],
    ]);
    expectGaps(gapsOn(harness, lane.primary), [[1000, 1000]]);
    expect(decisionOf(result).attempts[0]).toMatchObject({ costUsd: 0, usage: noUsage });
    expect(arrivalsOn(harness, lane.backup)).toBe(0);
  });

  it('429 with a Retry-After past the deadline: no wait, the backup answers at once', async () => {
    const lane = lanes.retryAfterTooLong;
    scriptLane(harness, lane, [rateLimited({ 'retry-after': '5' }), answer]);
    const result = await reason(harness, lane);
    expectAnswered(result, lane, 'backup');
    expect(attemptsOf(result, lane.primary)).toEqual([['rate_limited', 0]]);
    expect(decisionOf(result).attempts[0]?.detail).toMatch(/Retry-After 5000 ms does not fit/);
    expect(arrivalsOn(harness, lane.backup)).toBe(1);
  });

  it('429 without Retry-After: two retries after jittered backoff, then the backup answers', async () => {
    const lane = lanes.limited;
    scriptLane(harness, lane, [rateLimited({})]);
    const result = await reason(harness, lane);
    expectAnswered(result, lane, 'backup');
    expect(attemptsOf(result, lane.primary)).toEqual([
      ['rate_limited', 0],
      ['rate_limited', 1],
      ['rate_limited', 2],
    ]);
    expectGaps(gapsOn(harness, lane.primary), [backoffBounds(0), backoffBounds(1)]);
    for (const attempt of decisionOf(result).attempts.slice(0, 3))
      expect(attempt).toMatchObject({ costUsd: 0, usage: noUsage });
  });

  it('500 once then healthy: retried after a backoff, the primary answers, the failure reported', async () => {
    const lane = lanes.serverOnce;
    scriptLane(harness, lane, [
      { type: 'json', status: 500, body: fixture('openai/error-server.json') },
      answer,
    ]);
    const result = await reason(harness, lane);
    expectAnswered(result, lane, 'primary');
    expect(attemptsOf(result, lane.primary)).toEqual([
      ['server', 0],
      ['ok', 1],
    ]);
    expectGaps(gapsOn(harness, lane.primary), [backoffBounds(0)]);
    expect(decisionOf(result).attempts[0]).toMatchObject({ costUsd: 0, usage: noUsage });
    expect(arrivalsOn(harness, lane.backup)).toBe(0);
  });

  it('503 persistent: three attempts on the primary, then the backup answers', async () => {
    const lane = lanes.unavailable;
    scriptLane(harness, lane, [
      { type: 'json', status: 503, body: { error: { message: 'Service Unavailable' } } },
    ]);
    const result = await reason(harness, lane);
    expectAnswered(result, lane, 'backup');
    expect(attemptsOf(result, lane.primary)).toEqual([
      ['overloaded', 0],
      ['overloaded', 1],
      ['overloaded', 2],
    ]);
    expectGaps(gapsOn(harness, lane.primary), [backoffBounds(0), backoffBounds(1)]);
  });

  it('connection reset before headers: network, retried twice, then the backup answers', async () => {
    const lane = lanes.reset;
    scriptLane(harness, lane, [{ type: 'reset' }]);
    const result = await reason(harness, lane);
    expectAnswered(result, lane, 'backup');
    expect(attemptsOf(result, lane.primary)).toEqual([
      ['network', 0],
      ['network', 1],
      ['network', 2],
    ]);
    expectGaps(gapsOn(harness, lane.primary), [backoffBounds(0), backoffBounds(1)]);
    // Nothing came back: not billed, and its usage is unknown rather than claimed to be zero.
    for (const attempt of decisionOf(result).attempts.slice(0, 3)) {
      expect(attempt.costUsd).toBe(0);
      expect(attempt.usage).toBeUndefined();
    }
  });
});
