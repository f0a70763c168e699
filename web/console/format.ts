// How the console writes numbers and times: dollars to the cent (or to the significant digit below a
// cent, since one request often costs a fraction of one), times in the browser's own zone.

export function usd(value: number): string {
  if (value === 0) return '$0.00';
  if (Math.abs(value) >= 0.01) {
    return `$${value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
  }
  return `$${value.toPrecision(2)}`;
}

export function count(value: number): string {
  return value.toLocaleString('en-US');
}

export function percent(share: number): string {
  return `${(share * 100).toFixed(share > 0 && share < 0.01 ? 1 : 0)}%`;
}

export function dateTime(ms: number): string {
  return new Date(ms).toLocaleString('en-GB', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
}

export function timeOfDay(ms: number): string {
  return new Date(ms).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

/** "in 25 s", "in 3 min" for a time ahead of `now`. */
export function untilTime(ms: number, now: number): string {
  const seconds = Math.max(0, Math.round((ms - now) / 1000));
  return seconds < 120 ? `in ${seconds} s` : `in ${Math.round(seconds / 60)} min`;
}

/** The UTC day (YYYY-MM-DD) of an instant, as Valve keeps usage. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
