import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { maxEventChars, maxStreamBytes, sizeOf, TooLargeError } from './read-limits';
import { withinIdle } from './timeouts';

/**
 * The server-sent events of a response body, parsed by `eventsource-parser` (the one SSE parser of
 * every adapter). An event still buffered when the body ends is dropped, never half-dispatched: a
 * stream cut mid-event must look cut. A stalled socket ends with IdleTimeoutError, a deadline with
 * the signal's reason; more than `maxStreamBytes` in all, or one event (or line) longer than
 * `maxEventChars`, with TooLargeError. The caller classifies each.
 */
export async function* readSse(
  body: ReadableStream<Uint8Array>,
  signal: AbortSignal,
  idleTimeoutMs?: number,
): AsyncGenerator<EventSourceMessage> {
  const queue: EventSourceMessage[] = [];
  let eventTooLong = false;
  const parser = createParser({
    onEvent: (event) => queue.push(event),
    // The parser holds an unfinished line and an undispatched event's data; past this it stops.
    maxBufferSize: maxEventChars,
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') eventTooLong = true;
    },
  });
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let size = 0;
  try {
    while (true) {
      const { done, value } = await withinIdle(reader.read(), signal, idleTimeoutMs);
      if (done) break;
      size += value.byteLength;
      if (size > maxStreamBytes) throw new TooLargeError(`more than ${sizeOf(maxStreamBytes)} in one stream`);
      parser.feed(decoder.decode(value, { stream: true }));
      if (eventTooLong) throw new TooLargeError(`a stream event longer than ${sizeOf(maxEventChars)}`);
      while (queue.length > 0) yield queue.shift() as EventSourceMessage;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}
