import type { StreamEvent } from './stream-events';

export type Framing = 'sse' | 'ndjson';

/** The framing the caller asked for with Accept, or undefined for a plain JSON answer. */
export function framingFor(accept: string | undefined): Framing | undefined {
  const value = (accept ?? '').toLowerCase();
  if (value.includes('text/event-stream')) return 'sse';
  if (value.includes('application/x-ndjson')) return 'ndjson';
  return undefined;
}

export const contentTypes: Record<Framing, string> = {
  sse: 'text/event-stream; charset=utf-8',
  ndjson: 'application/x-ndjson; charset=utf-8',
};

/**
 * One event as bytes: SSE with `event:` equal to the data's `type`, or one JSON object a line with no
 * SSE framing (one event per line, no SSE delimiters). JSON never contains
 * a raw newline, so neither framing can be broken by content.
 */
export function frameEvent(event: StreamEvent, framing: Framing): string {
  const json = JSON.stringify(event);
  return framing === 'sse' ? `event: ${event.type}\ndata: ${json}\n\n` : `${json}\n`;
}

/** Whether a plain JSON answer is acceptable: no Accept, or one that allows application/json. */
export function acceptsJson(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === '') return true;
  return accept
    .toLowerCase()
    .split(',')
    .some((range) => {
      const [type = '', ...params] = range.split(';').map((p) => p.trim());
      if (params.some((p) => /^q=0(\.0*)?$/.test(p))) return false;
      return type === 'application/json' || type === 'application/*' || type === '*/*';
    });
}
