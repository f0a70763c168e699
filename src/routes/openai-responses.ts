import { Hono } from 'hono';
import { holdBack } from '../doors/hold-back';
import { responsesEvents } from '../doors/openai/responses-events';
import { responsesRequestSchema } from '../doors/openai/responses-request';
import { finishedResponseOf, responseIdOf } from '../doors/openai/responses-response';
import { responsesToReason } from '../doors/openai/responses-to-reason';
import { sseResponse } from '../doors/sse-response';
import type { AppEnv } from '../env';
import { rejectDuplicateKeys } from '../middleware/i-json-body';
import { requireJson, validJson } from '../middleware/json-body';
import { rateLimit } from '../middleware/rate-limit';
import { requireKey } from '../middleware/require-key';
import { checkPinned } from './door-pinned';
import { answerJson, answerStream, doorHeaders } from './door-serve';

/** POST /openai/v1/responses: the Responses API, stateless, on the same pipeline as /v1/reason. */
export const openaiResponsesRoutes = new Hono<AppEnv>().post(
  '/responses',
  requireKey('reason'),
  rateLimit,
  rejectDuplicateKeys,
  requireJson,
  validJson(responsesRequestSchema),
  async (c) => {
    const body = c.req.valid('json');
    const { request, instructions, turnSources } = responsesToReason(body);
    checkPinned(c.env, request);
    const run = {
      request,
      privacy: body.valve?.privacy,
      route: 'POST /openai/v1/responses',
      instructions,
      turns: 'input' as const,
      turnSources,
    };
    const allow = body.valve?.allowTaintedDestructive === true;
    const createdSec = Math.floor(Date.now() / 1000);
    if (body.stream === true) {
      const { events, receiptId, abort, replayed } = await answerStream(c, run);
      const frames = responsesEvents(events, {
        request: body,
        tools: request.tools,
        allowTaintedDestructive: allow,
        createdSec,
        requestId: c.get('requestId'),
      });
      return sseResponse(frames, abort, doorHeaders(c, receiptId, replayed));
    }
    const { response, replayed } = await answerJson(c, run);
    const held = holdBack(response, request.tools, allow);
    const shell = { id: responseIdOf(response.receiptId), model: '', createdSec, request: body };
    return c.json(
      finishedResponseOf(response, held, shell),
      200,
      doorHeaders(c, response.receiptId, replayed),
    );
  },
);
