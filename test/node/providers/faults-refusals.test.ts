import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../fake-upstream/fake-upstream';
import {
  arrivalsOn,
  attemptsOf,
  backoffBounds,
  decisionOf,
  expectAnswered,
  expectFailed,
  expectGaps,
  gapsOn,
  type Harness,
  laneOf,
  noUsage,
  reason,
  scriptLane,
  startHarness,
  waitForCircuit,
} from '../helpers/fault-lanes';

// Refusals through the whole `POST /v1/reason` JSON path: the provider said no for a reason a retry
// on the same model cannot fix (providers.md, "Errors"). A context overflow goes only to a model with
// a larger window; a content filter is propagated, never laundered through another model; a bad key
// fails over and opens the provider's circuit.

const lanes = {
  overflow: laneOf('overflow'),
  overflowNoRoom: laneOf('overflow-no-room'),
  filtered: laneOf('filtered'),
  badKey: laneOf('bad-key'),
  allDown: laneOf('all-down'),
};

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness({
    [lanes.overflow.name]: {},
    [lanes.overflowNoRoom.name]: { backupContextTokens: 32_000 },
    [lanes.filtered.name]: {},
    [lanes.badKey.name]: {},
    [lanes.allDown.name]: {},
  });
});
afterAll(async () => {
  await harness?.stop();
});

describe('refusals, JSON path', () => {
  it('context length exceeded: not retried; the larger-window backup answers', async () => {
    const lane = lanes.overflow;
    scriptLane(harness, lane, [
      { type: 'json', status: 400, body: fixture('openai/error-context-length.json') },
    ]);
    const result = await reason(harness, lane);
    expectAnswered(result, lane, 'backup');
    expect(attemptsOf(result, lane.primary)).toEqual([['context_overflow', 0]]);
    expect(decisionOf(result).attempts[0]).toMatchObject({ costUsd: 0, usage: noUsage });
  });

  it('context length exceeded with no larger window planned: the backup is skipped, context_overflow', async () => {
    const lane = lanes.overflowNoRoom;
    scriptLane(harness, lane, [
      { type: 'json', status: 400, body: fixture('openai/error-context-length.json') },
    ]);
    const result = await reason(harness, lane);
    expectFailed(result, 'context_overflow');
    expect(decisionOf(result).attempts).toMatchObject([
      { provider: lane.primary, outcome: 'error', errorKind: 'context_overflow' },
      { provider: lane.backup, outcome: 'skipped', reason: 'context_window' },
    ]);
    expect(arrivalsOn(harness, lane.primary)).toBe(1);
    expect(arrivalsOn(harness, lane.backup)).toBe(0);
  });

  it('content filter: not retried, not failed over; the reason is propagated', async () => {
    const lane = lanes.filtered;
    scriptLane(harness, lane, [
      { type: 'json', status: 400, body: fixture('openai/error-content-filter.json') },
    ]);
    const result = await reason(harness, lane);
    expectFailed(result, 'content_filter');
    expect(result.json.error?.details).toMatchObject({ kind: 'content_filter', provider: lane.primary });
    expect(attemptsOf(result, lane.primary)).toEqual([['content_filter', 0]]);
    expect(decisionOf(result).attempts).toHaveLength(1);
    expect(arrivalsOn(harness, lane.primary)).toBe(1);
    expect(arrivalsOn(harness, lane.backup)).toBe(0);
  });

  it('bad key: auth, not retried; the backup answers and the provider’s circuit opens', async () => {
    const lane = lanes.badKey;
    scriptLane(harness, lane, [
      { type: 'json', status: 401, body: fixture('openai/error-invalid-key.json') },
    ]);
    const result = await reason(harness, lane);
    expectAnswered(result, lane, 'backup');
    expect(attemptsOf(result, lane.primary)).toEqual([['auth', 0]]);
    expect(decisionOf(result).attempts[0]).toMatchObject({ costUsd: 0, usage: noUsage });
    await waitForCircuit(harness, lane.primary, 'open');
    // The next request does not call the provider with the bad key again.
    const next = await reason(harness, lane);
    expectAnswered(next, lane, 'backup');
    expect(decisionOf(next).excluded).toContainEqual(
      expect.objectContaining({ provider: lane.primary, reason: 'circuit_open' }),
    );
    expect(arrivalsOn(harness, lane.primary)).toBe(1);
  });

  it('every model failing: the last error kind, with every attempt in the trace', async () => {
    const lane = lanes.allDown;
    scriptLane(
      harness,
      lane,
      [{ type: 'json', status: 401, body: fixture('openai/error-invalid-key.json') }],
      [{ type: 'json', status: 529, body: fixture('anthropic/error-overloaded.json') }],
    );
    const result = await reason(harness, lane);
    expectFailed(result, 'overloaded');
    expect(attemptsOf(result, lane.primary)).toEqual([['auth', 0]]);
    expect(attemptsOf(result, lane.backup)).toEqual([
      ['overloaded', 0],
      ['overloaded', 1],
      ['overloaded', 2],
    ]);
    expectGaps(gapsOn(harness, lane.backup), [backoffBounds(0), backoffBounds(1)]);
    for (const attempt of decisionOf(result).attempts)
      expect(attempt).toMatchObject({ costUsd: 0, usage: noUsage });
  });
});
