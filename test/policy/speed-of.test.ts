import { describe, expect, it } from 'vitest';
import { noHealth } from '../../src/policy/plan-types';
import { speedOf } from '../../src/policy/speed-of';
import { simModel } from '../helpers/catalog-fixtures';

const entry = simModel('m', { latency: { ttftMsP50: 20, ttftMsP90: 40, outputTokensPerSec: 1000 } });
const observing = (outputTokensPerSec: number | undefined) => ({
  ...noHealth,
  observedSpeed: () => ({ ttftMsP50: 300, ttftMsP90: 600, outputTokensPerSec }),
});

describe('speedOf', () => {
  it('takes the observed speed when health has one', () => {
    expect(speedOf(entry, observing(50))).toEqual({
      ttftMsP50: 300,
      ttftMsP90: 600,
      outputTokensPerSec: 50,
      source: 'observed',
    });
  });

  it('takes the catalog’s output speed when the observed one is 0 or not a number, so no estimate divides by 0', () => {
    for (const tps of [0, -1, Number.NaN, undefined])
      expect(speedOf(entry, observing(tps)).outputTokensPerSec).toBe(1000);
  });

  it('is the catalog’s without observations', () => {
    expect(speedOf(entry, noHealth)).toMatchObject({ outputTokensPerSec: 1000, source: 'catalog' });
  });
});
