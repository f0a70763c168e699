import { Hono } from 'hono';
import { reasonRequestSchema } from '../contracts/reason-request';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';
import { rejectDuplicateKeys } from '../middleware/i-json-body';
import { requireJson, validJson } from '../middleware/json-body';
import { rateLimit } from '../middleware/rate-limit';
import { requireKey } from '../middleware/require-key';
import { serveAnswer, serveEvents } from '../reason/serve-reason';
import { chooseFraming } from './choose-framing';
import { serveDepsOf } from './reason-deps';
import { streamBody, streamHeaders } from './stream-response';

/**
 * POST /v1/reason: the framing comes from Accept. A stream is written by the step before the JSON
 * handler, so the typed client reads the JSON answer's type from the last handler alone. Both serve
 * the same effects, named in serveDepsOf: the receipt (issuance/), the model call, the usage record.
 */
export const reasonRoutes = new Hono<AppEnv>().post(
  '/reason',
  requireKey('reason'),
  rateLimit,
  rejectDuplicateKeys,
  requireJson,
  validJson(reasonRequestSchema),
  async (c, next) => {
    const answer = chooseFraming(c.req.header('Accept'));
    if (answer === undefined || answer === 'json') return next();
    const framing = answer;
    const served = await serveEvents(c.req.valid('json'), serveDepsOf(c));
    const replayed = served.replayed ? { 'Idempotent-Replayed': 'true' } : undefined;
    return new Response(streamBody(served.events, framing, served.abort), {
      status: 200,
      headers: { ...replayed, 'X-Request-Id': c.get('requestId'), ...streamHeaders(framing) },
    });
  },
  async (c) => {
    if (chooseFraming(c.req.header('Accept')) === undefined) {
      throw new ApiError(
        'request.not_acceptable',
        'POST /v1/reason answers application/json, text/event-stream or application/x-ndjson.',
      );
    }
    const served = await serveAnswer(c.req.valid('json'), serveDepsOf(c));
    if (!served.replayed) return c.json(served.response);
    return c.json(served.response, 200, {
      'Idempotent-Replayed': 'true',
      'X-Request-Id': c.get('requestId'),
    });
  },
);
