import { readTextUpTo } from '../../encoding/read-text-up-to';
import { withinIdle } from './timeouts';

// How much Valve reads from a provider. Each limit is far above any real answer (a 128k-token
// answer is well under 1 MiB of JSON, and about 30 MiB as OpenAI's chunk-per-token SSE), and far
// below what would exhaust a worker's memory; past it the answer is a provider failure.

const MiB = 1024 * 1024;
/** The largest whole (non-streamed) answer read. */
export const maxJsonBodyBytes = 4 * MiB;
/** How much of a failed answer's body is read to classify it; the rest is not read. */
export const maxErrorBodyBytes = 64 * 1024;
/** The most a streamed answer may send in all. */
export const maxStreamBytes = 32 * MiB;
/** The longest single server-sent event, or line, of a stream (in characters, so at least 1 MiB). */
export const maxEventChars = MiB;

/** `n` bytes as the limits are written: `4 MiB`, `64 KiB`. */
export function sizeOf(n: number): string {
  return n >= MiB ? `${n / MiB} MiB` : `${n / 1024} KiB`;
}

/** Raised inside a call when the provider sent more than a limit allows; the caller classifies it. */
export class TooLargeError extends Error {
  /** `what` completes "the provider sent …": "a body larger than 4 MiB". */
  constructor(readonly what: string) {
    super(`The provider sent ${what}.`);
    this.name = 'TooLargeError';
  }
}

/**
 * A body's text, read chunk by chunk within the idle limit and at most `limit` bytes of it. Past the
 * limit the rest is cancelled unread: with `truncate` the text so far is returned, otherwise
 * TooLargeError is thrown. A declared Content-Length over the limit is refused before any read.
 */
export async function readBounded(
  response: Response,
  limit: number,
  signal: AbortSignal,
  idleMs?: number,
  truncate = false,
): Promise<string> {
  const tooLarge = () => new TooLargeError(`a body larger than ${sizeOf(limit)}`);
  const declared = Number(response.headers.get('content-length'));
  if (!truncate && declared > limit) {
    response.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  if (response.body === null) return '';
  const read = await readTextUpTo(response.body, limit, (next) => withinIdle(next, signal, idleMs));
  if (!read.complete && !truncate) throw tooLarge();
  return read.text;
}
