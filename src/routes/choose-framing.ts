import type { Framing } from '../streaming/frame-event';

/** How POST /v1/reason answers: one JSON body, or a stream in one of the framings. */
export type Answer = 'json' | Framing;

const offered: ReadonlyArray<{ answer: Answer; type: string }> = [
  { answer: 'sse', type: 'text/event-stream' },
  { answer: 'ndjson', type: 'application/x-ndjson' },
  { answer: 'json', type: 'application/json' },
];

interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

function parseRanges(accept: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const part of accept.toLowerCase().split(',')) {
    const [range = '', ...params] = part.split(';').map((p) => p.trim());
    const [type, subtype] = range.split('/');
    if (!type || !subtype) continue;
    let q = 1;
    for (const param of params) {
      const match = /^q\s*=\s*([01](?:\.\d{0,3})?)$/.exec(param);
      if (match) q = Math.min(1, Number(match[1]));
    }
    ranges.push({ type, subtype, q });
  }
  return ranges;
}

/** The q of the most specific range matching `type` (RFC 9110 §12.5.1), and whether it named it exactly. */
function qualityOf(type: string, ranges: readonly MediaRange[]): { q: number; exact: boolean } {
  const [main, sub] = type.split('/');
  let best: { q: number; specificity: number } = { q: 0, specificity: -1 };
  for (const range of ranges) {
    const specificity =
      range.type === main && range.subtype === sub
        ? 2
        : range.type === main && range.subtype === '*'
          ? 1
          : range.type === '*' && range.subtype === '*'
            ? 0
            : -1;
    if (specificity > best.specificity) best = { q: range.q, specificity };
  }
  return { q: best.q, exact: best.specificity === 2 };
}

/**
 * What the caller's Accept header asks for, honouring q-values; undefined when it accepts none of
 * them (406). No header, or an empty one, means JSON. A stream is chosen only when its type is named
 * outright (`*\/*` from curl means JSON); on equal q a named stream wins over JSON.
 */
export function chooseFraming(accept: string | undefined): Answer | undefined {
  if (accept === undefined || accept.trim() === '') return 'json';
  const ranges = parseRanges(accept);
  let chosen: { answer: Answer; q: number } | undefined;
  for (const { answer, type } of offered) {
    const { q, exact } = qualityOf(type, ranges);
    if (q <= 0 || (answer !== 'json' && !exact)) continue;
    if (chosen === undefined || q > chosen.q) chosen = { answer, q };
  }
  return chosen?.answer;
}
