// How the console writes numbers and times: dollars to the cent (or to the significant digit below a
// cent, since one request often costs a fraction of one), times in the browser's own zone. Each
// Intl formatter is made once: making one per cell took most of the time a table of 100 keys took to draw.

const dollars = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const whole = new Intl.NumberFormat('en-US');
const dateAndTime = new Intl.DateTimeFormat('en-GB', {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});
const clock = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit' });

export function usd(value: number): string {
  if (value === 0) return '$0.00';
  if (Math.abs(value) >= 0.01) return `$${dollars.format(value)}`;
  return `$${value.toPrecision(2)}`;
}

export function count(value: number): string {
  return whole.format(value);
}

export function percent(share: number): string {
  return `${(share * 100).toFixed(share > 0 && share < 0.01 ? 1 : 0)}%`;
}

export function dateTime(ms: number): string {
  return dateAndTime.format(ms);
}

export function timeOfDay(ms: number): string {
  return clock.format(ms);
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
