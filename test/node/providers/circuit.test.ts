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
  reason,
  scriptLane,
  startHarness,
  waitForCircuit,
} from '../helpers/fault-lanes';

// A primary that flaps down then up, through the whole `POST /v1/reason` path and the real ModelHealth
// Durable Object: three failures in a row open its circuit, requests then skip it while it is down,
// after the cooldown a single probe is let through, and its success closes the circuit again. The
// cooldown is shortened for the test (CIRCUIT_COOLDOWN_MS); it must outlast the health cache (3 s) so
// the open circuit is seen before it half-opens.

const cooldownMs = 4000;
const lane = laneOf('flap');

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness({ [lane.name]: {} }, { CIRCUIT_COOLDOWN_MS: String(cooldownMs) });
});
afterAll(async () => {
  await harness?.stop();
});

const down: Behaviour = { type: 'json', status: 503, body: { error: { message: 'down' } } };
const up: Behaviour = { type: 'json', body: fixture('openai/text.json') };

describe('the circuit of a primary that flaps down then up', () => {
  it('opens while the primary is down, lets one probe through after the cooldown, and closes on its success', async () => {
    scriptLane(harness, lane, [down]);

    // Down: three attempts (two retries), then the backup answers; three failures in a row open the circuit.
    const whileDown = await reason(harness, lane);
    expectAnswered(whileDown, lane, 'backup');
    expect(attemptsOf(whileDown, lane.primary)).toEqual([
      ['overloaded', 0],
      ['overloaded', 1],
      ['overloaded', 2],
    ]);
    expectGaps(gapsOn(harness, lane.primary), [backoffBounds(0), backoffBounds(1)]);
    await waitForCircuit(harness, lane.primary, 'open');

    // Open: the primary is not called at all; the backup answers.
    const whileOpen = await reason(harness, lane);
    expectAnswered(whileOpen, lane, 'backup');
    expect(decisionOf(whileOpen).excluded).toContainEqual(
      expect.objectContaining({ provider: lane.primary, reason: 'circuit_open' }),
    );
    expect(decisionOf(whileOpen).attempts.map((a) => a.provider)).toEqual([lane.backup]);
    expect(arrivalsOn(harness, lane.primary)).toBe(3);

    // Up again: after the cooldown the next request is the single probe, and the primary answers it.
    harness.upstream.script(lane.primary, [up]);
    await waitForCircuit(harness, lane.primary, 'half_open', cooldownMs + 4000);
    const probe = await reason(harness, lane);
    expectAnswered(probe, lane, 'primary');
    expect(attemptsOf(probe, lane.primary)).toEqual([['ok', 0]]);

    // Closed: the primary answers as before, no probe needed.
    await waitForCircuit(harness, lane.primary, 'closed');
    const afterRecovery = await reason(harness, lane);
    expectAnswered(afterRecovery, lane, 'primary');
    expect(decisionOf(afterRecovery).excluded).toEqual([]);
    expect(arrivalsOn(harness, lane.primary)).toBe(5);
    expect(arrivalsOn(harness, lane.backup)).toBe(2);
  });
});
