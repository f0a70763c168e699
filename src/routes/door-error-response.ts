import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '../env';
import { ApiError, toApiError } from '../errors';

/** An error in a door's own wire shape: its body, status and headers. */
export interface RenderedError {
  body: unknown;
  status: number;
  headers: Record<string, string>;
}

/**
 * The error handler of a door: any failure of a request under it, in the door's wire shape (`render`).
 * The app's own error handler calls it too, for what fails before the door's routes run (a body over
 * the size limit).
 */
export function doorErrorResponder(render: (error: ApiError, requestId: string) => RenderedError) {
  return (thrown: unknown, c: Context<AppEnv>): Response => {
    const error =
      thrown instanceof HTTPException
        ? thrown.status === 413
          ? new ApiError('request.too_large', 'The body is over the size limit.')
          : new ApiError('request.malformed_json', 'The body is not valid JSON.')
        : toApiError(thrown);
    const requestId = c.get('requestId') ?? crypto.randomUUID();
    if (error.status >= 500)
      console.error(
        JSON.stringify({ level: 'error', requestId, code: error.code, cause: String(error.cause ?? thrown) }),
      );
    const rendered = render(error, requestId);
    for (const [name, value] of Object.entries(rendered.headers)) c.header(name, value);
    c.header('X-Request-Id', requestId);
    return c.json(rendered.body as object, rendered.status as ContentfulStatusCode);
  };
}
