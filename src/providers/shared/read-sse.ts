import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { withinIdle } from './timeouts';

/**
 * The server-sent events of a response body, parsed by `eventsource-parser` (the one SSE parser of
 * every adapter). An event still buffered when the body ends is dropped, never half-dispatched: a
 * stream cut mid-event must look cut. A stalled socket ends with IdleTimeoutError, a deadline with
 * the signal's reason; the caller classifies both.
 */
export async function* readSse(
  body: ReadableStream<Uint8Array>,
  signal: AbortSignal,
  idleTimeoutMs?: number,
): AsyncGenerator<EventSourceMessage> {
  const queue: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => queue.push(event) });
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    while (true) {
      const { done, value } = await withinIdle(reader.read(), signal, idleTimeoutMs);
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
      while (queue.length > 0) yield queue.shift() as EventSourceMessage;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}
