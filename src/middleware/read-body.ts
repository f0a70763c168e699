import { createMiddleware } from 'hono/factory';
import { maxJsonDepth, tooDeepAt } from '../encoding/json-depth';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';
import { countSetting } from '../settings';
import { firstInvalidUtf8 } from './first-invalid-utf8';

const jsonLike = /json/i;

async function readAll(body: ReadableStream<Uint8Array>, timeoutMs: number): Promise<Uint8Array> {
  const reader = body.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(
        new ApiError('request.body_timeout', `The body did not arrive within ${timeoutMs} ms.`, {
          details: { timeoutMs },
        }),
      );
    }, timeoutMs);
  });
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), expired]);
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } catch (error) {
    reader.cancel().catch(() => undefined);
    throw error;
  } finally {
    clearTimeout(timer);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

// One decoder for every body: a call without `stream` keeps no state between calls.
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** JSON text from bytes: 400 naming the first byte that is not UTF-8, never a silent U+FFFD. */
export function decodeJsonText(bytes: Uint8Array): string {
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    const offset = firstInvalidUtf8(bytes);
    throw new ApiError('request.malformed_json', `The body is not valid UTF-8 (byte offset ${offset}).`, {
      details: { byteOffset: offset },
    });
  }
  const deep = tooDeepAt(text);
  if (deep >= 0) {
    throw new ApiError(
      'request.invalid',
      `The body nests deeper than ${maxJsonDepth} levels of objects and arrays (at character ${deep}).`,
      { details: { maxDepth: maxJsonDepth, offset: deep } },
    );
  }
  return text;
}

/**
 * Reads the whole body within a time limit, so an upload that never finishes cannot hold the request.
 * A JSON body must be UTF-8 and nest at most `maxJsonDepth` levels. Runs after the size limit, which
 * counts the same stream.
 */
export const readBody = createMiddleware<AppEnv>(async (c, next) => {
  const body = c.req.raw.body;
  if (body === null || c.req.method === 'GET' || c.req.method === 'HEAD') return next();
  const timeoutMs = countSetting(c.env, 'BODY_READ_TIMEOUT_MS');
  const bytes = await readAll(body, timeoutMs);
  c.set('bodyBytes', bytes.length);
  // What was read becomes the body the rest of the app reads through Hono (`c.req.text()`, `.json()`,
  // `.arrayBuffer()` answer from this cache): a JSON body decoded once, here, and no second Request
  // built around a copy of the bytes. The raw request's stream is spent; nothing reads it after this.
  // (Hono keeps promises in the cache at run time; its type names the settled values.)
  const cache = c.req.bodyCache as unknown as Record<'text' | 'arrayBuffer', Promise<unknown>>;
  if (jsonLike.test(c.req.header('Content-Type') ?? '')) {
    cache.text = Promise.resolve(decodeJsonText(bytes));
  } else {
    cache.arrayBuffer = Promise.resolve(bytes.buffer);
  }
  await next();
});
