import { contentTypes, type Framing, frameEvent } from '../streaming/frame-event';
import type { StreamEvent } from '../streaming/stream-events';

/**
 * Events as an SSE or NDJSON body, pulled one at a time (so a slow caller slows the upstream read).
 * When the caller disconnects, `cancel` aborts the upstream request through `abort`.
 */
export function streamBody(
  events: AsyncIterable<StreamEvent>,
  framing: Framing,
  abort: AbortController,
): ReadableStream<Uint8Array> {
  const iterator = events[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(frameEvent(next.value, framing)));
    },
    cancel() {
      abort.abort();
      void iterator.return?.();
    },
  });
}

/** The response headers of a stream in `framing`. */
export function streamHeaders(framing: Framing): Record<string, string> {
  return { 'Content-Type': contentTypes[framing], 'Cache-Control': 'no-cache' };
}
