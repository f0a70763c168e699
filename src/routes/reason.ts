import { Hono } from 'hono';
import { writeUsage } from '../background/write-behind';
import type { ReasonRequest } from '../contracts/reason-request';
import { reasonRequestSchema } from '../contracts/reason-request';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';
import { iJsonError, rejectDuplicateKeys } from '../middleware/i-json-body';
import { requireJson, validJson } from '../middleware/json-body';
import { rateLimit } from '../middleware/rate-limit';
import { requireKey } from '../middleware/require-key';
import { claimReceiptId } from '../reason/idempotency';
import { prepareReason } from '../reason/prepare-reason';
import { receiptHookFor } from '../reason/receipt-hook';
import { runReason } from '../reason/run-reason';
import { streamReason } from '../reason/stream-reason';
import { usageOfFailure, usageOfResponse } from '../reason/to-usage-record';
import { committedRequestProblems } from '../receipts/receipt-fields';
import { releaseClaim } from '../storage/receipts';
import type { StreamEvent } from '../streaming/stream-events';
import { chooseFraming } from './choose-framing';
import { reasonContextOf } from './reason-deps';
import { runInBackground } from './run-in-background';
import { endOf, streamResponse } from './stream-response';

/** A replayed answer as a stream: the events of a stream whose content is already known. */
async function* replayEvents(response: Extract<StreamEvent, { type: 'response.completed' }>['response']) {
  yield { type: 'response.created', receiptId: response.receiptId, model: response.model } as const;
  yield { type: 'response.completed', response } as const;
}

export const reasonRoutes = new Hono<AppEnv>().post(
  '/reason',
  requireKey('reason'),
  rateLimit,
  rejectDuplicateKeys,
  requireJson,
  validJson(reasonRequestSchema),
  async (c) => {
    const answer = chooseFraming(c.req.header('Accept'));
    const framing = answer === 'json' ? undefined : answer;
    if (answer === undefined) {
      throw new ApiError(
        'request.not_acceptable',
        'POST /v1/reason answers application/json, text/event-stream or application/x-ndjson.',
      );
    }
    const startedAt = c.var.arrivedAt ?? performance.now();
    const arrivedAt = Date.now();
    const caller = c.var.caller;
    const request: ReasonRequest = c.req.valid('json');
    // Everything the receipt commits to must be I-JSON, checked before any model is called.
    const problems = committedRequestProblems(request);
    if (problems.length > 0) throw iJsonError(problems);
    const receiptId = request.receiptId;
    if (receiptId !== undefined) {
      const claim = await claimReceiptId(
        caller.tenant,
        { ...request, receiptId },
        { db: c.env.DB, now: Date.now, sleep: (ms) => new Promise((r) => setTimeout(r, ms)), waitMs: 30_000 },
      );
      if (claim.kind === 'replay') {
        const headers = { 'Idempotent-Replayed': 'true', 'X-Request-Id': c.var.requestId };
        if (framing) {
          const replayed = claim.response as Parameters<typeof replayEvents>[0];
          return streamResponse(replayEvents(replayed), framing, new AbortController(), headers) as never;
        }
        return c.json(claim.response as object, 200, headers);
      }
    }
    const { deps, flushHealth } = await reasonContextOf(c, startedAt);
    const issueReceipt = receiptHookFor(c.env, caller.tenant);
    const stream = framing !== undefined;
    // Usage and health are written after the answer, off the response path.
    const recordFailure = (error: unknown) => {
      const latencyMs = performance.now() - startedAt;
      if (receiptId !== undefined) runInBackground(c, () => releaseClaim(c.env.DB, caller.tenant, receiptId));
      runInBackground(c, () =>
        writeUsage(c.env.DB, usageOfFailure(caller, error, latencyMs, stream, arrivedAt)),
      );
    };
    if (framing) {
      let prepared: Awaited<ReturnType<typeof prepareReason>>;
      try {
        // Planning and admission errors are still plain HTTP errors: nothing has been streamed yet.
        prepared = await prepareReason(request, { ...deps, issueReceipt });
      } catch (error) {
        recordFailure(error);
        throw error;
      }
      const abort = new AbortController();
      let ended: () => void = () => undefined;
      // Keeps the request's background work alive until the stream's terminal event.
      runInBackground(c, () => new Promise<void>((resolve) => (ended = resolve)));
      const events = streamReason(
        prepared,
        { ...deps, issueReceipt },
        {
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
        },
      );
      // Typed as `never` so the typed client keeps reading the JSON answer's type.
      return streamResponse(events, framing, abort, { 'X-Request-Id': c.var.requestId }) as never;
    }
    try {
      const response = await runReason(request, { ...deps, issueReceipt });
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
