// A bound of a usage query: a UTC day (`2026-01-31`) or an RFC 3339 timestamp
// (`2026-01-31T12:00:00Z`, `2026-01-31T13:00:00.5+01:00`; https://www.rfc-editor.org/rfc/rfc3339#section-5.6).
// Date.parse alone is too lenient (it turns 30 February into 2 March and accepts 24:00), so every
// part is checked against the calendar.

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|([+-])(\d{2}):(\d{2}))$/;
const DAY_MS = 86_400_000;

function validDay(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The instant of a timestamp, or the first millisecond of a day; null when it is neither. */
export function startOfBound(text: string): number | null {
  const day = DAY.exec(text);
  if (day !== null) {
    const [y, m, d] = day.slice(1, 4).map(Number) as [number, number, number];
    return validDay(y, m, d) ? Date.UTC(y, m - 1, d) : null;
  }
  const t = TIMESTAMP.exec(text);
  if (t === null) return null;
  const [y, mo, d, h, mi, s] = t.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (!validDay(y, mo, d) || h > 23 || mi > 59 || s > 59) return null;
  const ms = t[7] === undefined ? 0 : Math.floor(Number(`0${t[7]}`) * 1000);
  let offset = 0;
  if (t[9] !== undefined) {
    const [oh, om] = [Number(t[10]), Number(t[11])];
    if (oh > 23 || om > 59) return null;
    offset = (t[9] === '-' ? -1 : 1) * (oh * 60 + om) * 60_000;
  }
  return Date.UTC(y, mo - 1, d, h, mi, s, ms) - offset;
}

/** The last millisecond a `to` bound includes: the instant itself, or the end of the day. */
export function endOfBound(text: string): number | null {
  const start = startOfBound(text);
  if (start === null) return null;
  return DAY.test(text) ? start + DAY_MS - 1 : start;
}

export function isUsageBound(text: string): boolean {
  return startOfBound(text) !== null;
}

export const usageBoundMessage =
  'must be a date YYYY-MM-DD or an RFC 3339 timestamp such as 2026-01-31T12:00:00Z';
