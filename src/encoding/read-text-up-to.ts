// Reading a body Valve does not trust the sender of (a provider's, a witness's): never more than a
// bound is kept in memory, and past it the rest is cancelled unread, so a server that answers and
// keeps sending costs at most the bound (and the chunk that crossed it), not a worker's memory.

export interface TextPrefix {
  /** The body's text, or its first `limit` bytes' when it was longer. */
  text: string;
  /** Whether the body ended within `limit` bytes; when not, the rest was cancelled unread. */
  complete: boolean;
}

/**
 * The text of `body` up to `limit` bytes, read chunk by chunk; `wait` wraps each read (an idle timer,
 * a signal). The stream is cancelled once done, whether it ended, went past the limit or failed.
 */
export async function readTextUpTo(
  body: ReadableStream<Uint8Array>,
  limit: number,
  wait: <T>(read: Promise<T>) => Promise<T> = (read) => read,
): Promise<TextPrefix> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let size = 0;
  try {
    while (true) {
      const { done, value } = await wait(reader.read());
      if (done) return { text: text + decoder.decode(), complete: true };
      size += value.byteLength;
      if (size > limit) {
        const kept = value.subarray(0, value.byteLength - (size - limit));
        return { text: text + decoder.decode(kept), complete: false };
      }
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}
