import { Hono } from 'hono';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { maxJsonDepth, tooDeepAt } from '../../src/encoding/json-depth';
import type { AppEnv } from '../../src/env';
import { ApiError } from '../../src/errors';
import { firstInvalidUtf8 } from '../../src/middleware/first-invalid-utf8';
import { readBody } from '../../src/middleware/read-body';
import { call, createKey } from '../helpers/api';

function bytesOf(...parts: Array<string | number[]>): Uint8Array {
  const chunks = parts.map((p) => (typeof p === 'string' ? new TextEncoder().encode(p) : Uint8Array.from(p)));
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

function nested(depth: number): string {
  return `${'['.repeat(depth)}${']'.repeat(depth)}`;
}

async function post(key: string, body: BodyInit): Promise<Response> {
  return call('/v1/reason', {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body,
  });
}

describe('firstInvalidUtf8', () => {
  it('finds the first byte of each kind of ill-formed sequence, and -1 for well-formed text', () => {
    expect(firstInvalidUtf8(bytesOf('plain ascii é 漢 😀'))).toBe(-1);
    expect(firstInvalidUtf8(bytesOf('ab', [0xff], 'c'))).toBe(2); // never a UTF-8 byte
    expect(firstInvalidUtf8(bytesOf('abc', [0x80]))).toBe(3); // a lone continuation byte
    expect(firstInvalidUtf8(bytesOf('é', [0xc0, 0xaf]))).toBe(2); // overlong '/'
    expect(firstInvalidUtf8(bytesOf([0xe0, 0x80, 0xaf]))).toBe(0); // overlong, three bytes
    expect(firstInvalidUtf8(bytesOf('x', [0xed, 0xa0, 0x80]))).toBe(1); // an encoded surrogate
    expect(firstInvalidUtf8(bytesOf([0xf4, 0x90, 0x80, 0x80]))).toBe(0); // past U+10FFFF
    expect(firstInvalidUtf8(bytesOf('😀', [0xf0, 0x9f, 0x98]))).toBe(4); // cut at the end
  });
});

describe('tooDeepAt', () => {
  it('allows the limit, finds the first bracket past it, and ignores brackets inside strings', () => {
    expect(tooDeepAt(nested(maxJsonDepth))).toBe(-1);
    expect(tooDeepAt(nested(maxJsonDepth + 1))).toBe(maxJsonDepth);
    expect(tooDeepAt(`{"a":"${'['.repeat(500)}\\"${'{'.repeat(500)}"}`)).toBe(-1);
    expect(tooDeepAt(`{"a\\\\":${nested(70)}}`)).toBe(7 + 63);
  });
});

describe('POST /v1/reason with a hostile body', () => {
  it('rejects invalid UTF-8 with a 400 naming the byte offset, instead of committing to U+FFFD', async () => {
    const { key } = await createKey();
    const prefix = '{"task":"summarize","context":[{"trust":"untrusted","privacy":"public","content":"caf';
    const res = await post(key, bytesOf(prefix, [0xe9], '"}]}'));
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; message: string; details: unknown } };
    expect(body.error.code).toBe('request.malformed_json');
    expect(body.error.message).toContain(`byte offset ${prefix.length}`);
    expect(body.error.details).toEqual({ byteOffset: prefix.length });
  });

  it('decodes each body afresh: a body cut inside a character leaves nothing behind for the next', async () => {
    const { key } = await createKey();
    // Ends inside the three bytes of "€": a decoder that kept state would join them to the next body.
    const cut = await post(key, bytesOf('{"task":"', [0xe2, 0x82]));
    expect(cut.status).toBe(400);
    const next = await post(key, bytesOf([0xac], '"}'));
    expect(next.status).toBe(400);
    expect(((await next.json()) as { error: { details: unknown } }).error.details).toEqual({ byteOffset: 0 });
    const whole = await post(key, bytesOf('{"task":"summarize","instructions":"€ ok"}'));
    expect(whole.status).not.toBe(400);
  });

  it('rejects context content nested past the limit with a 400 naming the limit, and accepts the limit', async () => {
    const { key } = await createKey();
    const body = (depth: number) =>
      `{"task":"summarize","instructions":"Summarize.","context":[{"trust":"untrusted","privacy":"public","content":{"a":${nested(depth)}}}]}`;
    const deep = await post(key, body(5000));
    expect(deep.status).toBe(400);
    const error = ((await deep.json()) as { error: { code: string; message: string; details: unknown } })
      .error;
    expect(error.code).toBe('request.invalid');
    expect(error.message).toContain(`deeper than ${maxJsonDepth} levels`);
    expect(error.details).toMatchObject({ maxDepth: maxJsonDepth });
    // The body's own levels (object, context array, item, content object) count toward the limit.
    expect((await post(key, body(maxJsonDepth - 4))).status).toBe(200);
    expect((await post(key, body(maxJsonDepth - 3))).status).toBe(400);
  });
});

describe('readBody', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers 408 request.body_timeout when the upload never finishes', async () => {
    vi.useFakeTimers();
    const app = new Hono<AppEnv>()
      .use('*', readBody)
      .post('/', (c) => c.text('read'))
      .onError((error, c) =>
        error instanceof ApiError
          ? c.json({ code: error.code, message: error.message }, error.status as 408)
          : c.text(String(error), 500),
      );
    let cancelled = false;
    const never = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"task":'));
      },
      cancel() {
        cancelled = true;
      },
    });
    const request = new Request('http://valve.test/', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: never,
      duplex: 'half',
    } as RequestInit);
    const pending = Promise.resolve(app.request(request, undefined, { BODY_READ_TIMEOUT_MS: '5000' }));
    await vi.advanceTimersByTimeAsync(4999);
    let settled = false;
    void pending.then(() => {
      settled = true;
    });
    await Promise.resolve();
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const res = await pending;
    expect(res.status).toBe(408);
    expect(await res.json()).toEqual({
      code: 'request.body_timeout',
      message: 'The body did not arrive within 5000 ms.',
    });
    expect(cancelled).toBe(true);
  });
});
