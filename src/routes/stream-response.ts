import { contentTypes, type Framing, frameEvent } from '../streaming/frame-event';
import type { StreamEvent } from '../streaming/stream-events';

/**
 * Writes events as SSE or NDJSON, pulled one at a time (so a slow caller slows the upstream read).
 * When the caller disconnects, `cancel` aborts the upstream request through `abort`.
 */
export function streamResponse(
  events: AsyncIterable<StreamEvent>,
  framing: Framing,
  abort: AbortController,
  headers: Record<string, string>,
): Response {
  const iterator = events[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
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
  return new Response(body, {
    status: 200,
    headers: { ...headers, 'Content-Type': contentTypes[framing], 'Cache-Control': 'no-cache' },
  });
}
