// A bound of a usage query: a UTC day (`2026-01-31`) or an RFC 3339 timestamp
// (`2026-01-31T12:00:00Z`, `2026-01-31T13:00:00.5+01:00`; https://www.rfc-editor.org/rfc/rfc3339#section-5.6),
// the `date` and `date-time` formats of JSON Schema. Date.parse alone is too lenient (it turns
// 30 February into 2 March and accepts 24:00), and Date.UTC reads the years 0–99 as 1900–1999, so every
// part is checked against the calendar here and the instant is built year first.

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|([+-])(\d{2}):(\d{2}))$/;
const DAY_MS = 86_400_000;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

function validDay(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= (month === 2 && isLeapYear(year) ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0));
}

/** The instant of a UTC date and time, for any four-digit year. */
function utcInstant(year: number, month: number, day: number, h = 0, mi = 0, s = 0, ms = 0): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(h, mi, s, ms);
  return date.getTime();
}

/** The instant of a timestamp, or the first millisecond of a day; null when it is neither. */
export function startOfBound(text: string): number | null {
  const day = DAY.exec(text);
  if (day !== null) {
    const [y, m, d] = day.slice(1, 4).map(Number) as [number, number, number];
    return validDay(y, m, d) ? utcInstant(y, m, d) : null;
  }
  const t = TIMESTAMP.exec(text);
  if (t === null) return null;
  const [y, mo, d, h, mi, s] = t.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (!validDay(y, mo, d) || h > 23 || mi > 59 || s > 60) return null;
  let offsetMin = 0;
  if (t[9] !== undefined) {
    const [oh, om] = [Number(t[10]), Number(t[11])];
    if (oh > 23 || om > 59) return null;
    offsetMin = (t[9] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  // A leap second (:60) ends a UTC day (RFC 3339 §5.7); POSIX time has no place for it, so it counts
  // as the last millisecond of its minute.
  if (s === 60 && (((h * 60 + mi - offsetMin) % 1440) + 1440) % 1440 !== 1439) return null;
  const ms = s === 60 ? 999 : t[7] === undefined ? 0 : Math.floor(Number(`0${t[7]}`) * 1000);
  return utcInstant(y, mo, d, h, mi, Math.min(s, 59), ms) - offsetMin * 60_000;
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
