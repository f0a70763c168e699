import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkStreamOrder, parseSse } from '../../helpers/check-stream-order';
import { type Behaviour, fixture, sseFixture } from '../fake-upstream/fake-upstream';
import {
  arrivalsOn,
  attemptsOf,
  backoffBounds,
  type Decision,
  decisionOf,
  expectGaps,
  gapsOn,
  type Harness,
  idleMs,
  type Lane,
  laneOf,
  maxLatencyMs,
  maxOutputTokens,
  noUsage,
  overheadMs,
  type ReasonResult,
  scriptLane,
  slackMs,
  startHarness,
  waitForCircuit,
} from '../helpers/fault-lanes';

// The provider faults of faults-transient, -silence, -bodies and -refusals, through the whole
// `POST /v1/reason` path as a stream (`Accept: text/event-stream`): real worker, real sockets, one
// lane per test. Before the first content delta the attempt loop retries and fails over exactly as
// the JSON path does, and `response.created` names the model that answers; after it, a failure ends
// the stream with one `response.error` (`emittedDeltas: true`) and another model is never spliced in.

const lanes = {
  retryAfter: laneOf('s-retry-after'),
  unavailable: laneOf('s-unavailable'),
  reset: laneOf('s-reset'),
  cutEarly: laneOf('s-cut-early'),
  cutLate: laneOf('s-cut-late'),
  hang: laneOf('s-hang'),
  stall: laneOf('s-stall'),
  malformed: laneOf('s-malformed'),
  unterminated: laneOf('s-unterminated'),
  overflow: laneOf('s-overflow'),
  filtered: laneOf('s-filtered'),
  badKey: laneOf('s-bad-key'),
};

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness(Object.fromEntries(Object.values(lanes).map((lane) => [lane.name, {}])));
});
afterAll(async () => {
  await harness?.stop();
});

const primaryFrames = sseFixture('openai/text.sse.json');
const backupFrames = sseFixture('anthropic/text.sse.json');
/** The text each recorded stream carries (adapter-streams.test.ts). */
const primaryText = '**Holiday Name:**';
const backupText = "Hello! I'm doing well, thank you for asking. How are you doing today?";
/** openai/text.sse.json: frame 0 has an empty delta, frames 1–4 the text, 5 the finish, 6 usage, 7 [DONE]. */
const firstContentFrame = 1;

const streamed: Behaviour = { type: 'sse', frames: primaryFrames };
const backupStreamed: Behaviour[] = [{ type: 'sse', frames: backupFrames }];

interface Event {
  type: string;
  [key: string]: unknown;
}

interface Streamed {
  status: number;
  contentType: string;
  events: Event[];
  /** When each event reached the client, ms after the request was sent. */
  times: number[];
  /** The client's view of the whole request. */
  ms: number;
}

/** POST /v1/reason for a lane as a stream, read chunk by chunk so each event has its arrival time. */
async function reasonStream(lane: Lane): Promise<Streamed> {
  const began = performance.now();
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
  const contentType = res.headers.get('content-type') ?? '';
  const events: Event[] = [];
  const times: number[] = [];
  let buffered = '';
  const decoder = new TextDecoder();
  const take = () => {
    const end = buffered.lastIndexOf('\n\n');
    if (end < 0) return;
    const complete = parseSse(buffered.slice(0, end + 2));
    buffered = buffered.slice(end + 2);
    const at = performance.now() - began;
    for (const event of complete) {
      events.push(event);
      times.push(at);
    }
  };
  const reader = res.body?.getReader();
  for (let read = await reader?.read(); read && !read.done; read = await reader?.read()) {
    buffered += decoder.decode(read.value, { stream: true });
    take();
  }
  buffered += decoder.decode();
  take();
  expect(buffered.trim(), 'no half event at the end of the stream').toBe('');
  return { status: res.status, contentType, events, times, ms: performance.now() - began };
}

/** The stream obeys the contract: SSE, 200, exactly one terminal event, last. */
function expectWellFormed(result: Streamed) {
  expect(result.status).toBe(200);
  expect(result.contentType).toMatch(/^text\/event-stream/);
  expect(checkStreamOrder(result.events)).toEqual([]);
}

function terminalOf(result: Streamed): Event {
  return result.events.at(-1) as Event;
}

function textOf(result: Streamed): string {
  return result.events
    .filter((event) => event.type === 'response.output_text.delta')
    .map((event) => String(event.delta))
    .join('');
}

interface StreamError {
  code: string;
  details?: { decision?: Decision; kind?: string } & Record<string, unknown>;
}

/** The terminal event as the JSON path's result, so the JSON tests' helpers read its trace. */
function asResult(result: Streamed): ReasonResult {
  const terminal = terminalOf(result);
  const json =
    terminal.type === 'response.error'
      ? { error: terminal.error as StreamError }
      : (terminal.response as ReasonResult['json']);
  return { status: result.status, json, ms: result.ms };
}

/**
 * What every streamed answer must show: a well-formed stream ending in `response.completed` that
 * names the model that answered, `response.created` (if sent) naming it too and before any delta, the
 * text sent equal to the response's output, every attempt's cost summing to the response's, and all
 * within maxLatencyMs.
 */
function expectStreamAnswered(result: Streamed, lane: Lane, by: 'primary' | 'backup') {
  expectWellFormed(result);
  const terminal = terminalOf(result);
  expect(terminal.type, JSON.stringify(terminal)).toBe('response.completed');
  const provider = by === 'primary' ? lane.primary : lane.backup;
  const model = by === 'primary' ? 'gpt-test' : 'claude-test';
  const text = by === 'primary' ? primaryText : backupText;
  const answer = asResult(result);
  expect(answer.json.model).toMatchObject({ provider, model });
  expect(answer.json.output).toEqual({ format: 'text', text });
  expect(textOf(result)).toBe(text);
  const created = result.events.filter((event) => event.type === 'response.created');
  expect(created.length).toBeLessThanOrEqual(1);
  if (created[0]) {
    expect(result.events[0]?.type, 'response.created comes first').toBe('response.created');
    expect(created[0].model).toMatchObject({ provider, model });
  }
  const decision = decisionOf(answer);
  expect(decision.attempts.at(-1)).toMatchObject({ provider, outcome: 'ok' });
  const total = decision.attempts.reduce((sum, a) => sum + a.costUsd, 0);
  expect(answer.json.costUsd).toBeCloseTo(total, 12);
  expect(result.ms).toBeLessThan(maxLatencyMs + overheadMs);
}

/**
 * What every failed stream must show: one terminal `response.error` with the error kind and whether
 * content had reached the caller, never `response.completed`, within maxLatencyMs.
 */
function expectStreamFailed(result: Streamed, code: string | RegExp, emittedDeltas: boolean) {
  expectWellFormed(result);
  expect(result.events.some((event) => event.type === 'response.completed')).toBe(false);
  const terminal = terminalOf(result);
  expect(terminal.type, JSON.stringify(terminal)).toBe('response.error');
  expect((terminal.error as StreamError).code).toMatch(code);
  expect(terminal.emittedDeltas).toBe(emittedDeltas);
  expect(result.ms).toBeLessThan(maxLatencyMs + overheadMs);
}

/** The primary's text reached the caller, then the stream failed; the backup was never called. */
function expectNotSpliced(result: Streamed, lane: Lane) {
  const text = textOf(result);
  expect(text.length).toBeGreaterThan(0);
  expect(primaryText.startsWith(text), `${JSON.stringify(text)} is a prefix of the primary's text`).toBe(
    true,
  );
  expect(text).not.toContain('Hello');
  const created = result.events.find((event) => event.type === 'response.created');
  expect(created?.model).toMatchObject({ provider: lane.primary, model: 'gpt-test' });
  expect(arrivalsOn(harness, lane.backup)).toBe(0);
}

const rateLimited = (headers: Record<string, string>): Behaviour => ({
  type: 'json',
  status: 429,
  body: fixture('openai/error-rate-limit.json'),
  headers,
});

describe('transient faults before any content, streaming path', () => {
  it('429 with Retry-After that fits: retried once, not sooner than asked, and the primary’s stream completes', async () => {
    const lane = lanes.retryAfter;
    scriptLane(harness, lane, [rateLimited({ 'retry-after': '1' }), streamed], backupStreamed);
    const result = await reasonStream(lane);
    expectStreamAnswered(result, lane, 'primary');
    const answer = asResult(result);
    expect(attemptsOf(answer, lane.primary)).toEqual([
      ['rate_limited', 0],
      ['ok', 1],
    ]);
    expectGaps(gapsOn(harness, lane.primary), [[1000, 1000]]);
    expect(decisionOf(answer).attempts[0]).toMatchObject({ costUsd: 0, usage: noUsage });
    expect(arrivalsOn(harness, lane.backup)).toBe(0);
  });

  it('503 persistent: three attempts on the primary, then the backup’s stream completes, named from the start', async () => {
    const lane = lanes.unavailable;
    scriptLane(
      harness,
      lane,
      [{ type: 'json', status: 503, body: { error: { message: 'Service Unavailable' } } }],
      backupStreamed,
    );
    const result = await reasonStream(lane);
    expectStreamAnswered(result, lane, 'backup');
    expect(attemptsOf(asResult(result), lane.primary)).toEqual([
      ['overloaded', 0],
      ['overloaded', 1],
      ['overloaded', 2],
    ]);
    expectGaps(gapsOn(harness, lane.primary), [backoffBounds(0), backoffBounds(1)]);
    expect(arrivalsOn(harness, lane.backup)).toBe(1);
  });

  it('connection reset before headers: network, retried twice, then the backup’s stream completes', async () => {
    const lane = lanes.reset;
    scriptLane(harness, lane, [{ type: 'reset' }], backupStreamed);
    const result = await reasonStream(lane);
    expectStreamAnswered(result, lane, 'backup');
    const answer = asResult(result);
    expect(attemptsOf(answer, lane.primary)).toEqual([
      ['network', 0],
      ['network', 1],
      ['network', 2],
    ]);
    expectGaps(gapsOn(harness, lane.primary), [backoffBounds(0), backoffBounds(1)]);
    for (const attempt of decisionOf(answer).attempts.slice(0, 3)) {
      expect(attempt.costUsd).toBe(0);
      expect(attempt.usage).toBeUndefined();
    }
  });

  it('a stream cut before its first content delta: nothing reached the caller, so the backup’s stream completes', async () => {
    const lane = lanes.cutEarly;
    scriptLane(
      harness,
      lane,
      [{ type: 'sse', frames: primaryFrames, cutAfter: firstContentFrame }],
      backupStreamed,
    );
    const result = await reasonStream(lane);
    expectStreamAnswered(result, lane, 'backup');
    const primaryAttempts = attemptsOf(asResult(result), lane.primary);
    expect(primaryAttempts.length).toBeGreaterThanOrEqual(1);
    for (const [kind] of primaryAttempts) expect(kind).toBe('network');
    expect(arrivalsOn(harness, lane.backup)).toBe(1);
  });

  it('accepted but never answered: cut at the idle limit, the backup’s stream completes in time', async () => {
    const lane = lanes.hang;
    scriptLane(harness, lane, [{ type: 'hang' }], backupStreamed);
    const result = await reasonStream(lane);
    expectStreamAnswered(result, lane, 'backup');
    const answer = asResult(result);
    expect(attemptsOf(answer, lane.primary)).toEqual([['timeout', 0]]);
    const [cut] = decisionOf(answer).attempts;
    expect(cut?.latencyMs).toBeGreaterThanOrEqual(idleMs - 5);
    expect(cut?.latencyMs).toBeLessThanOrEqual(idleMs + slackMs);
    expect(arrivalsOn(harness, lane.primary)).toBe(1);
  });
});

describe('faults after content was streamed', () => {
  it('a stream cut mid-answer: one response.error with emittedDeltas, the backup never spliced in', async () => {
    const lane = lanes.cutLate;
    scriptLane(harness, lane, [{ type: 'sse', frames: primaryFrames, cutAfter: 3 }], backupStreamed);
    const result = await reasonStream(lane);
    expectStreamFailed(result, /^model\.(network|invalid_response)$/, true);
    expectNotSpliced(result, lane);
    expect(textOf(result)).toBe('**Holiday');
    const error = terminalOf(result).error as StreamError;
    expect(['network', 'invalid_response']).toContain(error.details?.kind);
    expect(arrivalsOn(harness, lane.primary)).toBe(1);
  });

  it('a stream that stalls mid-answer: response.error (timeout) at the idle limit, never completed', async () => {
    const lane = lanes.stall;
    scriptLane(harness, lane, [{ type: 'sse', frames: primaryFrames, stallAfter: 3 }], backupStreamed);
    const result = await reasonStream(lane);
    expectStreamFailed(result, 'model.timeout', true);
    expectNotSpliced(result, lane);
    expect(result.events.some((event) => event.type === 'response.cancelled')).toBe(false);
    // Cut for silence: not sooner than the idle limit after the last content, not much later.
    const lastDelta = result.events.findLastIndex((event) => event.type === 'response.output_text.delta');
    const silence = (result.times.at(-1) as number) - (result.times[lastDelta] as number);
    expect(silence).toBeGreaterThanOrEqual(idleMs - 5);
    expect(silence).toBeLessThanOrEqual(idleMs + slackMs);
    expect(result.ms).toBeLessThanOrEqual(maxLatencyMs + slackMs);
    expect(arrivalsOn(harness, lane.primary)).toBe(1);
  });

  it('a malformed chunk after content: response.error (invalid_response), never completed', async () => {
    const lane = lanes.malformed;
    const frames = [...primaryFrames.slice(0, 3), 'data: {"broken":\n\n', ...primaryFrames.slice(3)];
    scriptLane(harness, lane, [{ type: 'sse', frames }], backupStreamed);
    const result = await reasonStream(lane);
    expectStreamFailed(result, 'model.invalid_response', true);
    expectNotSpliced(result, lane);
    expect(arrivalsOn(harness, lane.primary)).toBe(1);
  });

  it('a stream that ends without a finish reason: response.error (invalid_response), never completed', async () => {
    const lane = lanes.unterminated;
    scriptLane(harness, lane, [{ type: 'sse', frames: primaryFrames.slice(0, 5) }], backupStreamed);
    const result = await reasonStream(lane);
    expectStreamFailed(result, 'model.invalid_response', true);
    expectNotSpliced(result, lane);
    expect(textOf(result)).toBe(primaryText);
    expect(arrivalsOn(harness, lane.primary)).toBe(1);
  });
});

describe('refusals before streaming, streaming path', () => {
  it('context length exceeded: not retried; the larger-window backup’s stream completes', async () => {
    const lane = lanes.overflow;
    scriptLane(
      harness,
      lane,
      [{ type: 'json', status: 400, body: fixture('openai/error-context-length.json') }],
      backupStreamed,
    );
    const result = await reasonStream(lane);
    expectStreamAnswered(result, lane, 'backup');
    const answer = asResult(result);
    expect(attemptsOf(answer, lane.primary)).toEqual([['context_overflow', 0]]);
    expect(decisionOf(answer).attempts[0]).toMatchObject({ costUsd: 0, usage: noUsage });
  });

  it('content filter: not retried, not failed over; the reason is propagated as response.error', async () => {
    const lane = lanes.filtered;
    scriptLane(
      harness,
      lane,
      [{ type: 'json', status: 400, body: fixture('openai/error-content-filter.json') }],
      backupStreamed,
    );
    const result = await reasonStream(lane);
    expectStreamFailed(result, 'model.content_filter', false);
    expect(result.events.map((event) => event.type)).toEqual(['response.error']);
    const answer = asResult(result);
    expect(answer.json.error?.details).toMatchObject({ kind: 'content_filter', provider: lane.primary });
    expect(attemptsOf(answer, lane.primary)).toEqual([['content_filter', 0]]);
    expect(decisionOf(answer).attempts).toHaveLength(1);
    expect(arrivalsOn(harness, lane.primary)).toBe(1);
    expect(arrivalsOn(harness, lane.backup)).toBe(0);
  });

  it('bad key: auth, not retried; the backup’s stream completes and the provider’s circuit opens', async () => {
    const lane = lanes.badKey;
    scriptLane(
      harness,
      lane,
      [{ type: 'json', status: 401, body: fixture('openai/error-invalid-key.json') }],
      backupStreamed,
    );
    const result = await reasonStream(lane);
    expectStreamAnswered(result, lane, 'backup');
    const answer = asResult(result);
    expect(attemptsOf(answer, lane.primary)).toEqual([['auth', 0]]);
    expect(decisionOf(answer).attempts[0]).toMatchObject({ costUsd: 0, usage: noUsage });
    await waitForCircuit(harness, lane.primary, 'open');
    const next = await reasonStream(lane);
    expectStreamAnswered(next, lane, 'backup');
    expect(decisionOf(asResult(next)).excluded).toContainEqual(
      expect.objectContaining({ provider: lane.primary, reason: 'circuit_open' }),
    );
    expect(arrivalsOn(harness, lane.primary)).toBe(1);
  });
});
