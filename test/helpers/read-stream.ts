import { checkStreamOrder, parseSse } from './check-stream-order';

export interface StreamEventLike {
  type: string;
  [key: string]: unknown;
}

/** One JSON object a line, no SSE framing (application/x-ndjson). */
export function parseNdjson(text: string): StreamEventLike[] {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as StreamEventLike);
}

/** Reads a streamed answer (SSE or NDJSON by its Content-Type) and fails on any ordering violation. */
export async function readStream(res: Response): Promise<StreamEventLike[]> {
  const text = new TextDecoder().decode(await res.arrayBuffer());
  const events = (res.headers.get('content-type') ?? '').startsWith('text/event-stream')
    ? parseSse(text)
    : parseNdjson(text);
  const problems = checkStreamOrder(events);
  if (problems.length > 0) throw new Error(`stream order: ${problems.join('; ')}`);
  return events;
}

/** The text the caller received: every output_text delta, in order. */
export function deltaText(events: readonly StreamEventLike[]): string {
  return events
    .filter((event) => event.type === 'response.output_text.delta')
    .map((event) => String(event.delta))
    .join('');
}

/** The refusal a stream carried, from its `response.refusal.delta` events. */
export function refusalText(events: readonly StreamEventLike[]): string {
  return events
    .filter((event) => event.type === 'response.refusal.delta')
    .map((event) => String(event.delta))
    .join('');
}

export function terminalOf(events: readonly StreamEventLike[]): StreamEventLike {
  return events[events.length - 1] as StreamEventLike;
}
