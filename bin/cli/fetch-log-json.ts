import { concatBytes } from '../../src/encoding/bytes';
import { escapeControlCharacters } from '../../src/encoding/escape-control-characters';
import { parseIJson } from '../../src/receipts/i-json';

// What `--fetch` reads from a log server, which may be slow, enormous, elsewhere or hostile. Each
// request has a deadline that covers the whole answer, body included; no redirect is followed (a log
// that moved is named, not trusted); the body is read up to a bound and then dropped. An answer that
// breaks any of these is a check that could not be run, never a verdict about the log.

export interface LogFetchLimits {
  /** Milliseconds for one request, from connecting to the last byte of its body. */
  timeoutMs: number;
  /** The most bytes of one answer's body that are read. */
  maxBytes: number;
}

/** A log answers a few kilobytes (a checkpoint; a proof of at most about a hundred hashes). */
export const DEFAULT_LOG_FETCH_LIMITS: LogFetchLimits = { timeoutMs: 10_000, maxBytes: 1024 * 1024 };

/** Text a server sent, for a message: quoted, cut short, and with no control character left raw. */
export function quoteServerText(text: string, max = 200): string {
  return escapeControlCharacters(JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text));
}

async function readBounded(res: Response, url: string, maxBytes: number): Promise<Uint8Array> {
  const tooLarge = () =>
    new Error(`${url} answered more than ${maxBytes} bytes, and a log answers a few kilobytes`);
  if (Number(res.headers.get('content-length')) > maxBytes) {
    await res.body?.cancel();
    throw tooLarge();
  }
  if (res.body === null) return new Uint8Array(0);
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return concatBytes(...chunks);
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
}

async function answerOf(url: string, limits: LogFetchLimits, signal: AbortSignal): Promise<unknown> {
  const res = await fetch(url, { headers: { accept: 'application/json' }, redirect: 'manual', signal });
  if (res.status >= 300 && res.status < 400) {
    await res.body?.cancel();
    const location = res.headers.get('location');
    const to = location === null ? 'nowhere' : quoteServerText(location);
    throw new Error(
      `${url} answered a redirect (${res.status} to ${to}); valve-verify follows none: give --fetch the log's own URL`,
    );
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new Error(`${url} answered ${res.status}`);
  }
  const bytes = await readBounded(res, url, limits.maxBytes);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new Error(`${url} did not answer UTF-8 text`);
  }
  const parsed = parseIJson(text);
  if (!parsed.ok) throw new Error(`${url} did not answer JSON (I-JSON)`);
  return parsed.value;
}

/** GETs one JSON answer of a log within `limits`; throws an Error that says why it could not. */
export async function fetchLogJson(url: string, limits: LogFetchLimits): Promise<unknown> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  try {
    return await answerOf(url, limits, signal);
  } catch (error) {
    if (signal.aborted)
      throw new Error(`${url} did not answer within ${limits.timeoutMs / 1000} s (--timeout)`);
    // undici's own failure is "fetch failed"; the reason (refused, reset, DNS) is its cause.
    if (error instanceof TypeError && error.cause instanceof Error) {
      throw new Error(`could not reach ${url}: ${escapeControlCharacters(error.cause.message)}`);
    }
    throw error;
  }
}
