import { describe, expect, it } from 'vitest';
import { daysBetween, niceMax, shareOf } from '../../../web/console/chart-scale';
import { usd } from '../../../web/console/format';

describe('the console’s chart scale', () => {
  it.each([
    [0.0045, 0.005],
    [0.01, 0.01],
    [7, 10],
    [200, 200],
    [201, 500],
    [0, 1],
    [Number.NaN, 1],
  ])('ends an axis for %s at %s', (value, max) => {
    expect(niceMax(value)).toBeCloseTo(max, 12);
  });

  it('keeps a share within the axis', () => {
    expect([shareOf(5, 10), shareOf(15, 10), shareOf(-1, 10), shareOf(1, 0)]).toEqual([0.5, 1, 0, 0]);
  });

  it('lists every UTC day of a range, across a month’s end', () => {
    expect(daysBetween('2026-02-27', '2026-03-01')).toEqual(['2026-02-27', '2026-02-28', '2026-03-01']);
  });

  it('writes dollars to the cent, and a fraction of a cent to two significant digits', () => {
    expect([usd(0), usd(12.5), usd(1234.567), usd(0.0045), usd(0.000742)]).toEqual([
      '$0.00',
      '$12.50',
      '$1,234.57',
      '$0.0045',
      '$0.00074',
    ]);
  });
});
