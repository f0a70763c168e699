import { Hono } from 'hono';
import { writeUsage } from '../background/write-behind';
import type { ReasonRequest } from '../contracts/reason-request';
import { reasonRequestSchema } from '../contracts/reason-request';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';
import { requireJson, validJson } from '../middleware/json-body';
import { rateLimit } from '../middleware/rate-limit';
import { requireKey } from '../middleware/require-key';
import { prepareReason } from '../reason/prepare-reason';
import { runReason } from '../reason/run-reason';
import { streamReason } from '../reason/stream-reason';
import { usageOfFailure, usageOfResponse } from '../reason/to-usage-record';
import { acceptsJson, framingFor } from '../streaming/frame-event';
import { reasonContextOf } from './reason-deps';
import { runInBackground } from './run-in-background';
import { endOf, streamResponse } from './stream-response';

export const reasonRoutes = new Hono<AppEnv>().post(
  '/reason',
  requireKey('reason'),
  rateLimit,
  requireJson,
  validJson(reasonRequestSchema),
  async (c) => {
    const accept = c.req.header('Accept');
    const framing = framingFor(accept);
    if (!framing && !acceptsJson(accept)) {
      throw new ApiError(
        'request.not_acceptable',
        'POST /v1/reason answers application/json, text/event-stream or application/x-ndjson.',
      );
    }
    const startedAt = c.var.arrivedAt ?? performance.now();
    const arrivedAt = Date.now();
    const caller = c.var.caller;
    const { deps, flushHealth } = await reasonContextOf(c, startedAt);
    const request: ReasonRequest = c.req.valid('json');
    const stream = framing !== undefined;
    // Usage and health are written after the answer, off the response path.
    const recordFailure = (error: unknown) => {
      const latencyMs = performance.now() - startedAt;
      runInBackground(c, () =>
        writeUsage(c.env.DB, usageOfFailure(caller, error, latencyMs, stream, arrivedAt)),
      );
    };
    if (framing) {
      let prepared: Awaited<ReturnType<typeof prepareReason>>;
      try {
        // Planning and admission errors are still plain HTTP errors: nothing has been streamed yet.
        prepared = await prepareReason(request, deps);
      } catch (error) {
        recordFailure(error);
        throw error;
      }
      const abort = new AbortController();
      let ended: () => void = () => undefined;
      // Keeps the request's background work alive until the stream's terminal event.
      runInBackground(c, () => new Promise<void>((resolve) => (ended = resolve)));
      const events = streamReason(prepared, deps, {
        requestId: c.var.requestId,
        signal: abort.signal,
        onEnd: (event) => {
          flushHealth();
          const end = endOf(event);
          if (end && 'response' in end) {
            const record = usageOfResponse(caller, end.response, true, arrivedAt);
            runInBackground(c, () => writeUsage(c.env.DB, record));
          } else if (end) recordFailure(end.error);
          ended();
        },
      });
      // Typed as `never` so the typed client keeps reading the JSON answer's type.
      return streamResponse(events, framing, abort, { 'X-Request-Id': c.var.requestId }) as never;
    }
    try {
      const response = await runReason(request, deps);
      runInBackground(c, () => writeUsage(c.env.DB, usageOfResponse(caller, response, false, arrivedAt)));
      return c.json(response);
    } catch (error) {
      recordFailure(error);
      throw error;
    } finally {
      flushHealth();
    }
  },
);
