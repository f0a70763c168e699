import { Hono } from 'hono';
import { holdBack } from '../doors/hold-back';
import {
  decidedResponseEvents,
  decidedResponseIdOf,
  decidedResponseOf,
} from '../doors/openai/decided-responses';
import { responsesEvents } from '../doors/openai/responses-events';
import { responsesRequestSchema } from '../doors/openai/responses-request';
import { finishedResponseOf, responseIdOf } from '../doors/openai/responses-response';
import { responsesToReason } from '../doors/openai/responses-to-reason';
import { spliceReviewerTurns } from '../doors/splice-reviewer-turns';
import { sseResponse } from '../doors/sse-response';
import type { AppEnv } from '../env';
import { rejectDuplicateKeys } from '../middleware/i-json-body';
import { requireJson, validJson } from '../middleware/json-body';
import { rateLimit } from '../middleware/rate-limit';
import { requireKey } from '../middleware/require-key';
import { approvalsLookup, continuationOf } from './door-approvals';
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
    const mapped = responsesToReason(body);
    checkPinned(c.env, mapped.request);
    const createdSec = Math.floor(Date.now() / 1000);
    const named = [...(body.valve?.approvals ?? []), ...mapped.approvalAnswers];
    const next = await continuationOf(c, named, mapped);
    if (next.run !== undefined) {
      const headers = { 'X-Request-Id': c.get('requestId') };
      const shell = { id: decidedResponseIdOf(next.run), model: body.model, createdSec, request: body };
      if (body.stream !== true) return c.json(decidedResponseOf(next.run, shell), 200, headers);
      return sseResponse(decidedResponseEvents(next.run, shell), new AbortController(), headers);
    }
    const { request, instructions, turnSources } = spliceReviewerTurns(mapped, next.splices);
    const run = {
      request,
      privacy: body.valve?.privacy,
      route: 'POST /openai/v1/responses',
      instructions,
      turns: 'input' as const,
      turnSources,
    };
    const allow = body.valve?.allowTaintedDestructive === true;
    const approvalsOf = approvalsLookup(c);
    if (body.stream === true) {
      const { events, receiptId, abort, replayed } = await answerStream(c, run);
      const frames = responsesEvents(events, {
        request: body,
        tools: request.tools,
        allowTaintedDestructive: allow,
        createdSec,
        requestId: c.get('requestId'),
        approvalsOf,
      });
      return sseResponse(frames, abort, doorHeaders(c, receiptId, replayed));
    }
    const { response, replayed } = await answerJson(c, run);
    const held = holdBack(response, request.tools, allow);
    const approvals = held.held.length > 0 ? await approvalsOf(response, held) : [];
    const shell = { id: responseIdOf(response.receiptId), model: '', createdSec, request: body };
    return c.json(
      finishedResponseOf(response, held, shell, false, approvals),
      200,
      doorHeaders(c, response.receiptId, replayed),
    );
  },
);
