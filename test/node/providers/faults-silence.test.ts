import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Behaviour, fixture } from '../fake-upstream/fake-upstream';
import {
  arrivalsOn,
  attemptsOf,
  decisionOf,
  expectAnswered,
  type Harness,
  idleMs,
  laneOf,
  type ReasonResult,
  reason,
  scriptLane,
  slackMs,
  startHarness,
} from '../helpers/fault-lanes';

// Silence through the whole `POST /v1/reason` JSON path. Each attempt gets an idle limit
// (policy/stall-limit.ts): here the floor, 1.5 s, since these models are expected to answer in
// ~150 ms and 2.5 s are left with a backup planned. A model silent past it is cut with `timeout`, is
// not retried, counts at its worst case (it may have been billed), and the backup still has time.

const lanes = {
  hang: laneOf('hang'),
  late: laneOf('late'),
  slow: laneOf('slow'),
  stall: laneOf('stall'),
};

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness(Object.fromEntries(Object.values(lanes).map((lane) => [lane.name, {}])));
});
afterAll(async () => {
  await harness?.stop();
});

/** The primary was cut once for silence at the idle limit, at its worst case, and the backup answered. */
function expectCutForSilence(result: ReasonResult, primary: string) {
  expect(attemptsOf(result, primary)).toEqual([['timeout', 0]]);
  const decision = decisionOf(result);
  const [cut] = decision.attempts;
  expect(cut?.latencyMs).toBeGreaterThanOrEqual(idleMs - 5);
  expect(cut?.latencyMs).toBeLessThanOrEqual(idleMs + slackMs);
  expect(cut?.costUsd).toBe(decision.plan[0]?.worstCaseUsd);
  expect(cut?.usage).toBeUndefined();
}

// Lanes are independent, so these run side by side: the file takes one idle limit, not four.
describe.concurrent('silence, JSON path', () => {
  it('accepted but never answered: cut at the idle limit, tried once, the backup answers in time', async () => {
    const lane = lanes.hang;
    scriptLane(harness, lane, [{ type: 'hang' }]);
    const result = await reason(harness, lane);
    expectAnswered(result, lane, 'backup');
    expectCutForSilence(result, lane.primary);
    expect(arrivalsOn(harness, lane.primary)).toBe(1);
  });

  it('a first byte later than the idle limit: cut at the limit, not waited for, the backup answers', async () => {
    const lane = lanes.late;
    scriptLane(harness, lane, [{ type: 'json', delayMs: idleMs + 500, body: fixture('openai/text.json') }]);
    const result = await reason(harness, lane);
    expectAnswered(result, lane, 'backup');
    expectCutForSilence(result, lane.primary);
  });

  it('a slow first byte within the idle limit: waited for, and the primary answers', async () => {
    const lane = lanes.slow;
    const delayMs = 800;
    scriptLane(harness, lane, [{ type: 'json', delayMs, body: fixture('openai/text.json') }]);
    const result = await reason(harness, lane);
    expectAnswered(result, lane, 'primary');
    expect(attemptsOf(result, lane.primary)).toEqual([['ok', 0]]);
    expect(decisionOf(result).attempts[0]?.latencyMs).toBeGreaterThanOrEqual(delayMs);
    expect(arrivalsOn(harness, lane.backup)).toBe(0);
  });

  it('a body that stalls mid-answer: never returned as success; cut at the idle limit, the backup answers', async () => {
    const lane = lanes.stall;
    const stall: Behaviour = { type: 'stall-body', body: fixture('openai/text.json') };
    scriptLane(harness, lane, [stall]);
    const result = await reason(harness, lane);
    expectAnswered(result, lane, 'backup');
    expectCutForSilence(result, lane.primary);
    expect(arrivalsOn(harness, lane.primary)).toBe(1);
  });
});
