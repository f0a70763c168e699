import { Hono } from 'hono';
import { holdBack } from '../doors/hold-back';
import { chatChunks } from '../doors/openai/chat-chunks';
import { chatRequestSchema } from '../doors/openai/chat-request';
import { chatCompletionOf } from '../doors/openai/chat-response';
import { chatToReason } from '../doors/openai/chat-to-reason';
import { decidedChunks, decidedCompletionOf } from '../doors/openai/decided-chat';
import { ignoredChatKnobs, ignoredWarnings } from '../doors/openai/ignored-knobs';
import { modelOf, modelsListOf } from '../doors/openai/models-list';
import { openaiErrorOf } from '../doors/openai/openai-error';
import { spliceReviewerTurns } from '../doors/splice-reviewer-turns';
import { sseResponse } from '../doors/sse-response';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';
import { rejectDuplicateKeys } from '../middleware/i-json-body';
import { requireJson, validJson } from '../middleware/json-body';
import { rateLimit } from '../middleware/rate-limit';
import { requireKey } from '../middleware/require-key';
import { catalogInForce } from '../policy/catalog-in-force';
import { approvalsLookup, continuationOf } from './door-approvals';
import { doorErrorResponder } from './door-error-response';
import { checkPinned } from './door-pinned';
import { answerJson, answerStream, doorHeaders } from './door-serve';
import { openaiResponsesRoutes } from './openai-responses';

// The OpenAI-compatible door under /openai/v1: the same keys, scopes and pipeline as /v1/reason, with
// OpenAI's request, answer, stream and error shapes.

const chatRoute = '/chat/completions';

function methodNotAllowed(allow: string) {
  return () => {
    throw new ApiError('request.method_not_allowed', `This endpoint answers ${allow} only.`, {
      headers: { Allow: allow },
    });
  };
}

export const openaiRoutes = new Hono<AppEnv>()
  .post(
    chatRoute,
    requireKey('reason'),
    rateLimit,
    rejectDuplicateKeys,
    requireJson,
    validJson(chatRequestSchema),
    async (c) => {
      const body = c.req.valid('json');
      const mapped = chatToReason(body);
      checkPinned(c.env, mapped.request);
      const createdSec = Math.floor(Date.now() / 1000);
      const next = await continuationOf(c, body.valve?.approvals ?? [], mapped);
      if (next.run !== undefined) {
        const headers = { 'X-Request-Id': c.get('requestId') };
        if (body.stream !== true)
          return c.json(decidedCompletionOf(next.run, body.model, createdSec), 200, headers);
        const includeUsage = body.stream_options?.include_usage === true;
        const frames = decidedChunks(next.run, body.model, createdSec, includeUsage);
        return sseResponse(frames, new AbortController(), headers);
      }
      const { request, instructions, turnSources } = spliceReviewerTurns(mapped, next.splices);
      const run = {
        request,
        privacy: body.valve?.privacy,
        route: `POST /openai/v1${chatRoute}`,
        instructions,
        turns: 'messages' as const,
        turnSources,
      };
      const allow = body.valve?.allowTaintedDestructive === true;
      const notes = ignoredWarnings(ignoredChatKnobs(body));
      const approvalsOf = approvalsLookup(c);
      if (body.stream === true) {
        const { events, receiptId, abort, replayed } = await answerStream(c, run);
        const frames = chatChunks(events, {
          includeUsage: body.stream_options?.include_usage === true,
          tools: request.tools,
          allowTaintedDestructive: allow,
          createdSec,
          requestId: c.get('requestId'),
          notes,
          approvalsOf,
        });
        return sseResponse(frames, abort, doorHeaders(c, receiptId, replayed));
      }
      const { response, replayed } = await answerJson(c, run);
      const held = holdBack(response, request.tools, allow);
      const approvals = held.held.length > 0 ? await approvalsOf(response, held) : [];
      return c.json(
        chatCompletionOf(response, held, createdSec, notes, approvals),
        200,
        doorHeaders(c, response.receiptId, replayed),
      );
    },
  )
  .get('/models', requireKey(), (c) => {
    const { catalog, notConfigured } = catalogInForce(c.env);
    return c.json(modelsListOf(catalog, notConfigured));
  })
  // Catalog ids hold a `/` (`sim/fast`), so the id is the whole rest of the path, percent-decoded.
  .get('/models/:model{.+}', requireKey(), (c) => {
    const { catalog, notConfigured } = catalogInForce(c.env);
    const id = c.req.param('model');
    const model = modelOf(catalog, notConfigured, id);
    if (model === undefined) {
      throw new ApiError(
        'request.not_found',
        `The model '${id}' does not exist (GET /openai/v1/models lists them).`,
        {
          details: { param: 'model', openaiCode: 'model_not_found' },
        },
      );
    }
    return c.json(model);
  })
  .route('/', openaiResponsesRoutes)
  .all(chatRoute, methodNotAllowed('POST'))
  .all('/responses', methodNotAllowed('POST'))
  .all('/models', methodNotAllowed('GET'))
  .all('/models/*', methodNotAllowed('GET'))
  .all('*', (c) => {
    throw new ApiError('request.not_found', `No endpoint ${c.req.method} ${new URL(c.req.url).pathname}.`);
  });

/** Any failure of a request under this door as OpenAI's error body (routes/door-error-response.ts). */
export const openaiErrorResponse = doorErrorResponder(openaiErrorOf);

openaiRoutes.onError(openaiErrorResponse);
