import { type Context, Hono } from 'hono';
import { anthropicErrorOf } from '../doors/anthropic/anthropic-error';
import { decidedMessageEvents, decidedMessageOf } from '../doors/anthropic/decided-message';
import { messageEvents } from '../doors/anthropic/message-events';
import { messageOf } from '../doors/anthropic/message-response';
import {
  type CountTokensRequest,
  countTokensRequestSchema,
  messagesRequestSchema,
} from '../doors/anthropic/messages-request';
import { messagesToReason } from '../doors/anthropic/messages-to-reason';
import { resolveModelName } from '../doors/anthropic/model-names';
import { modelInfosOf, modelsPageOf } from '../doors/anthropic/models-list';
import { headerNotes, ignoredParams } from '../doors/anthropic/request-notes';
import { holdBack } from '../doors/hold-back';
import { pipelineRequestOf } from '../doors/pipeline-request';
import { spliceReviewerTurns } from '../doors/splice-reviewer-turns';
import { sseResponse } from '../doors/sse-response';
import { valveHeader, withHeaderOptions } from '../doors/valve-header';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';
import { rejectDuplicateKeys } from '../middleware/i-json-body';
import { requireJson, validJson } from '../middleware/json-body';
import { rateLimit } from '../middleware/rate-limit';
import { requireKey } from '../middleware/require-key';
import { catalogInForce } from '../policy/catalog-in-force';
import { loadCatalog } from '../policy/load-catalog';
import { countInputTokens } from '../reason/count-input-tokens';
import { approvalsLookup, continuationOf } from './door-approvals';
import { doorErrorResponder } from './door-error-response';
import { checkPinned } from './door-pinned';
import { answerJson, answerStream, doorHeaders } from './door-serve';

// The Anthropic-compatible door under /anthropic/v1 (ANTHROPIC_BASE_URL=<valve>/anthropic): the same
// keys, scopes and pipeline as /v1/reason and the OpenAI door, with Anthropic's request, message,
// event and error shapes. The key comes as `x-api-key` or `Authorization: Bearer`; Valve's options as
// the body's `valve` member or the `x-valve-options` header (Claude Code's ANTHROPIC_CUSTOM_HEADERS).

const key = (scope?: 'reason') => requireKey(scope, { xApiKey: true });

function methodNotAllowed(allow: string) {
  return () => {
    throw new ApiError('request.method_not_allowed', `This endpoint answers ${allow} only.`, {
      headers: { Allow: allow },
    });
  };
}

/** The `model` as the Reason mapping takes it, or Anthropic's 404 for a name nothing answers to. */
function modelOf(c: Context<AppEnv>, name: string): string {
  const model = resolveModelName(loadCatalog(c.env.VALVE_CATALOG), name);
  if (model !== undefined) return model;
  throw new ApiError(
    'request.not_found',
    `The model '${name}' does not exist: use "auto", "valve/cost", "valve/speed", "valve/quality", a catalog id "provider/model" (GET /anthropic/v1/models), or a name an operator mapped with a catalog model's answersTo.`,
    { details: { param: 'model' } },
  );
}

function notesOf(c: Context<AppEnv>, body: CountTokensRequest) {
  return [
    ...headerNotes(c.req.header('anthropic-version'), c.req.header('anthropic-beta')),
    ...ignoredParams(body),
  ];
}

function modelInfos(c: Context<AppEnv>) {
  const { catalog, notConfigured } = catalogInForce(c.env);
  return modelInfosOf(catalog, notConfigured);
}

export const anthropicRoutes = new Hono<AppEnv>()
  .post(
    '/messages',
    key('reason'),
    rateLimit,
    rejectDuplicateKeys,
    requireJson,
    validJson(messagesRequestSchema),
    async (c) => {
      const body = withHeaderOptions(c.req.valid('json'), c.req.header(valveHeader));
      const mapped = messagesToReason(body, modelOf(c, body.model));
      checkPinned(c.env, mapped.request);
      const next = await continuationOf(c, body.valve?.approvals ?? [], mapped);
      if (next.run !== undefined) {
        const headers = { 'X-Request-Id': c.get('requestId'), 'request-id': c.get('requestId') };
        if (body.stream !== true) return c.json(decidedMessageOf(next.run, body.model), 200, headers);
        return sseResponse(decidedMessageEvents(next.run, body.model), new AbortController(), headers);
      }
      const { request, instructions, turnSources } = spliceReviewerTurns(mapped, next.splices);
      const run = {
        request,
        privacy: body.valve?.privacy,
        route: 'POST /anthropic/v1/messages',
        instructions,
        turns: 'messages' as const,
        turnSources,
      };
      const allow = body.valve?.allowTaintedDestructive === true;
      const notes = [...notesOf(c, body), ...mapped.notes];
      const approvalsOf = approvalsLookup(c);
      if (body.stream === true) {
        const { events, receiptId, abort, replayed } = await answerStream(c, run);
        const frames = messageEvents(events, {
          tools: request.tools,
          allowTaintedDestructive: allow,
          requestId: c.get('requestId'),
          notes,
          approvalsOf,
        });
        return sseResponse(frames, abort, {
          ...doorHeaders(c, receiptId, replayed),
          'request-id': c.get('requestId'),
        });
      }
      const { response, replayed } = await answerJson(c, run);
      const held = holdBack(response, request.tools, allow);
      const approvals = held.held.length > 0 ? await approvalsOf(response, held) : [];
      return c.json(messageOf(response, held, notes, approvals), 200, {
        ...doorHeaders(c, response.receiptId, replayed),
        'request-id': c.get('requestId'),
      });
    },
  )
  .post(
    '/messages/count_tokens',
    key('reason'),
    rateLimit,
    rejectDuplicateKeys,
    requireJson,
    validJson(countTokensRequestSchema),
    async (c) => {
      const body = withHeaderOptions(c.req.valid('json'), c.req.header(valveHeader));
      const mapped = messagesToReason(body, modelOf(c, body.model));
      checkPinned(c.env, mapped.request);
      const request = pipelineRequestOf(mapped, 'messages');
      return c.json({ input_tokens: await countInputTokens(request, true) }, 200, {
        'request-id': c.get('requestId'),
      });
    },
  )
  .get('/models', key(), (c) => c.json(modelsPageOf(modelInfos(c))))
  // Catalog ids hold a `/` (`sim/fast`), so the id is the whole rest of the path, percent-decoded.
  .get('/models/:model{.+}', key(), (c) => {
    const id = c.req.param('model');
    const model = modelInfos(c).find((info) => info.id === id);
    if (model === undefined)
      throw new ApiError(
        'request.not_found',
        `The model '${id}' does not exist (GET /anthropic/v1/models lists them).`,
        {
          details: { param: 'model' },
        },
      );
    return c.json(model);
  })
  .all('/messages', methodNotAllowed('POST'))
  .all('/messages/count_tokens', methodNotAllowed('POST'))
  .all('/models', methodNotAllowed('GET'))
  .all('/models/*', methodNotAllowed('GET'))
  .all('*', (c) => {
    throw new ApiError('request.not_found', `No endpoint ${c.req.method} ${new URL(c.req.url).pathname}.`);
  });

/** Any failure of a request under this door as Anthropic's error body (routes/door-error-response.ts). */
export const anthropicErrorResponse = doorErrorResponder(anthropicErrorOf);

anthropicRoutes.onError(anthropicErrorResponse);
