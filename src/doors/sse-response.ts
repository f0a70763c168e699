// An SSE body pulled one frame at a time (a slow caller slows the upstream read). The first frame is
// awaited before the response exists, so a failure before any content is still a plain HTTP error.

export async function sseResponse(
  frames: AsyncGenerator<string>,
  abort: AbortController,
  headers: Record<string, string>,
): Promise<Response> {
  const first = await frames.next();
  const encoder = new TextEncoder();
  let pending: IteratorResult<string> | undefined = first;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = pending ?? (await frames.next());
      pending = undefined;
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    cancel() {
      abort.abort();
      void frames.return(undefined);
    },
  });
  return new Response(body, {
    status: 200,
    headers: { ...headers, 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache' },
  });
}
