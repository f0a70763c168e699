import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../fake-upstream/fake-upstream';
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
  reason,
  scriptLane,
  startHarness,
} from '../helpers/fault-lanes';

// Broken answers through the whole `POST /v1/reason` JSON path: a 2xx whose body is cut, malformed or
// missing its end is never returned as a complete success. A cut is a network fault (retried); an
// unusable body is `invalid_response` (another model, never the same one again).

const lanes = {
  cut: laneOf('cut'),
  malformed: laneOf('malformed'),
  truncated: laneOf('truncated'),
};

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness(Object.fromEntries(Object.values(lanes).map((lane) => [lane.name, {}])));
});
afterAll(async () => {
  await harness?.stop();
});

describe('broken bodies, JSON path', () => {
  it('a body cut mid-answer: never returned as success; network, retried twice, then the backup answers', async () => {
    const lane = lanes.cut;
    scriptLane(harness, lane, [{ type: 'cut-body', body: fixture('openai/text.json') }]);
    const result = await reason(harness, lane);
    expectAnswered(result, lane, 'backup');
    expect(attemptsOf(result, lane.primary)).toEqual([
      ['network', 0],
      ['network', 1],
      ['network', 2],
    ]);
    expectGaps(gapsOn(harness, lane.primary), [backoffBounds(0), backoffBounds(1)]);
    // The provider answered 200 before the cut: each attempt counts at its worst case.
    const decision = decisionOf(result);
    for (const attempt of decision.attempts.slice(0, 3)) {
      expect(attempt.costUsd).toBe(decision.plan[0]?.worstCaseUsd);
      expect(attempt.usage).toBeUndefined();
    }
  });

  it('a malformed body: invalid_response, not retried, then the backup answers', async () => {
    const lane = lanes.malformed;
    scriptLane(harness, lane, [{ type: 'raw', text: '{"id":"chatcmpl-1","choices":"not-a-list"}' }]);
    const result = await reason(harness, lane);
    expectAnswered(result, lane, 'backup');
    expect(attemptsOf(result, lane.primary)).toEqual([['invalid_response', 0]]);
    expect(arrivalsOn(harness, lane.primary)).toBe(1);
  });

  it('a body without its end (truncated JSON, connection closed cleanly): invalid_response, never success', async () => {
    const lane = lanes.truncated;
    scriptLane(harness, lane, [
      { type: 'raw', text: JSON.stringify(fixture('openai/text.json')).slice(0, 120) },
    ]);
    const result = await reason(harness, lane);
    expectAnswered(result, lane, 'backup');
    expect(attemptsOf(result, lane.primary)).toEqual([['invalid_response', 0]]);
    expect(arrivalsOn(harness, lane.primary)).toBe(1);
    const decision = decisionOf(result);
    expect(decision.attempts[0]?.costUsd).toBe(decision.plan[0]?.worstCaseUsd);
  });
});
