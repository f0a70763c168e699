import { describe, expect, it } from 'vitest';
import { discordant, mcnemarExact, wilson } from '../../../scripts/eval/stats.js';

describe('wilson', () => {
  it('gives the known 95% interval for 5 of 10', () => {
    const [low, high] = wilson(5, 10);
    expect(low).toBeCloseTo(0.2366, 4);
    expect(high).toBeCloseTo(0.7634, 4);
  });

  it('keeps 0 of 10 at zero with a real upper bound', () => {
    const [low, high] = wilson(0, 10);
    expect(low).toBe(0);
    expect(high).toBeCloseTo(0.2775, 4);
  });

  it('says nothing for no trials', () => {
    expect(wilson(0, 0)).toEqual([0, 1]);
  });
});

describe('mcnemarExact', () => {
  it('is twice the binomial tail: 0 vs 5 discordant pairs give 2/32', () => {
    expect(mcnemarExact(0, 5)).toBeCloseTo(0.0625, 10);
    expect(mcnemarExact(5, 0)).toBeCloseTo(0.0625, 10);
  });

  it('gives 22/1024 for 1 vs 9', () => {
    expect(mcnemarExact(1, 9)).toBeCloseTo(22 / 1024, 10);
  });

  it('caps at 1 when the arms agree as often as they differ', () => {
    expect(mcnemarExact(3, 3)).toBe(1);
    expect(mcnemarExact(0, 0)).toBe(1);
  });
});

describe('discordant', () => {
  it('counts each direction over the trials both arms answered', () => {
    const first = new Map([
      ['a', true],
      ['b', true],
      ['c', false],
      ['d', true],
    ]);
    const second = new Map([
      ['a', false],
      ['b', true],
      ['c', true],
      ['e', false],
    ]);
    expect(discordant(first, second)).toEqual({ only: 1, other: 1, paired: 3 });
  });
});
