import type { StreamEvent } from './stream-events';

export type Framing = 'sse' | 'ndjson';

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
