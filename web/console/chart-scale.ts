// The arithmetic of the console's charts, apart from the drawing: an axis that ends on a round
// number at or above the largest value, and where a value falls on it.

/** The smallest 1, 2 or 5 times a power of ten at or above `value` (1 for nothing to show). */
export function niceMax(value: number): number {
  if (!(value > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * power >= value * (1 - 1e-12)) return step * power;
  return 10 * power;
}

/** `value` as a share of `max`, kept within 0 and 1. */
export function shareOf(value: number, max: number): number {
  if (!(max > 0)) return 0;
  return Math.min(1, Math.max(0, value / max));
}

/** Every day from `first` to `last` (YYYY-MM-DD, UTC), both included. */
export function daysBetween(first: string, last: string): string[] {
  const days: string[] = [];
  for (let ms = Date.parse(`${first}T00:00:00Z`); ms <= Date.parse(`${last}T00:00:00Z`); ms += 86_400_000) {
    days.push(new Date(ms).toISOString().slice(0, 10));
  }
  return days;
}
