import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';

/** A caller's correlation id: 1–128 letters, digits and `. _ : -` (UUIDs, W3C trace ids, ULIDs fit). */
export const correlationIdPattern = /^[A-Za-z0-9._:-]{1,128}$/;

/** The header a correlation id is read from first, and echoed in. */
export const correlationHeader = 'X-Correlation-Id';

/**
 * The caller's correlation id: `X-Correlation-Id`, else an `X-Request-Id` the caller sent (many
 * clients send one). Undefined when there is none; a 400 naming the header when it is malformed.
 */
export function correlationIdOf(headers: { get(name: string): string | null }): string | undefined {
  for (const name of [correlationHeader, 'X-Request-Id']) {
    const value = headers.get(name);
    if (value === null) continue;
    if (!correlationIdPattern.test(value)) {
      // The ids are set before this throws, so the error body still carries Valve's own requestId.
      throw new ApiError(
        'request.invalid',
        `The ${name} header must be 1–128 letters, digits or . _ : - (it is echoed as ${correlationHeader}).`,
        { details: { issues: [{ path: `header:${name}`, code: 'invalid_header', message: 'malformed' }] } },
      );
    }
    return value;
  }
  return undefined;
}

/**
 * Valve's own request id, always fresh (in `X-Request-Id` and every error body): a client-chosen id
 * would let one request pose as another in logs and support threads. The client's own id is kept
 * apart as a correlation id, validated and echoed in `X-Correlation-Id`.
 */
export const requestIds = createMiddleware<AppEnv>(async (c, next) => {
  const id = crypto.randomUUID();
  c.set('requestId', id);
  c.header('X-Request-Id', id);
  const correlationId = correlationIdOf(c.req.raw.headers);
  if (correlationId !== undefined) {
    c.set('correlationId', correlationId);
    c.header(correlationHeader, correlationId);
  }
  await next();
});
