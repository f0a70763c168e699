import type { Context } from 'hono';
import { writeUsage } from '../background/write-behind';
import type { PrivacyLevel, ReasonRequest } from '../contracts/reason-request';
import type { ReasonResponse } from '../contracts/reason-response';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';
import { iJsonError } from '../middleware/i-json-body';
import type { Exclusion } from '../policy/plan-types';
import { answerOf } from '../reason/answer-of';
import { callAttempts } from '../reason/call-attempts';
import { callWithRepair } from '../reason/check-output';
import { claimReceiptId } from '../reason/idempotency';
import { callDepsOf, type PreparedReason, prepareReason, type ReasonDeps } from '../reason/prepare-reason';
import { receiptHookFor } from '../reason/receipt-hook';
import { streamReason } from '../reason/stream-reason';
import { usageOfFailure, usageOfResponse } from '../reason/to-usage-record';
import { committedRequestProblems } from '../receipts/receipt-fields';
import { reasonContextOf } from '../routes/reason-deps';
import { runInBackground } from '../routes/run-in-background';
import { endOf } from '../routes/stream-response';
import { releaseClaim } from '../storage/receipts';
import type { StreamEvent } from '../streaming/stream-events';
import { scopeToPrivacy } from './message-privacy';
import { pipelineRequestOf } from './pipeline-request';
import type { ExtReasonRequest } from './reason-request-ext';

// The door's one coupling to the pipeline: everything it calls in src/reason/ and the Reason route's
// dependency wiring is here. The door hands over a derived Reason request and gets back an answer or
// a stream of Valve's events; the encoders in this folder only reshape those.

export interface DoorRun {
  request: ExtReasonRequest;
  /** The most sensitive level of the messages themselves (`valve.privacy`). */
  privacy?: PrivacyLevel;
  /** The route, for the usage record. */
  route: string;
}

/** Tool choice and sampling ride on the model request; user turns are never trusted. */
function tune(prepared: PreparedReason, request: ExtReasonRequest): void {
  const { sampling, toolChoice, parallelToolCalls } = request;
  const settings = { ...prepared.modelRequest.settings };
  if (sampling?.temperature !== undefined) settings.temperature = sampling.temperature;
  if (sampling?.stop !== undefined) settings.stop = sampling.stop;
  if (parallelToolCalls !== undefined) settings.parallel_tool_calls = parallelToolCalls;
  prepared.modelRequest = { ...prepared.modelRequest, settings };
  if (toolChoice !== undefined) prepared.modelRequest.tool_choice = toolChoice;
  if ((request.conversation ?? []).some((turn) => turn.role === 'user' || turn.role === 'tool'))
    prepared.prompt = { ...prepared.prompt, tainted: true };
}

/** Render, plan and admit, with the models the messages' privacy rules out listed as excluded. */
async function prepare(
  request: ReasonRequest,
  deps: ReasonDeps,
  excluded: Exclusion[],
): Promise<PreparedReason> {
  try {
    const prepared = await prepareReason(request, deps);
    prepared.plan = { ...prepared.plan, excluded: [...prepared.plan.excluded, ...excluded] };
    return prepared;
  } catch (error) {
    const details =
      error instanceof ApiError && error.code === 'policy.no_eligible_model' ? error.details : null;
    if (details && Array.isArray(details.excluded)) details.excluded = [...details.excluded, ...excluded];
    const decision = details?.decision as { excluded?: unknown[] } | undefined;
    if (decision && Array.isArray(decision.excluded)) decision.excluded = [...decision.excluded, ...excluded];
    throw error;
  }
}

type WithReceipts = ReasonDeps & { issueReceipt: NonNullable<ReasonDeps['issueReceipt']> };

/** A call to run, or the replay of the answer an earlier call with the same receiptId got. */
type Started =
  | { kind: 'replay'; response: ReasonResponse }
  | {
      kind: 'run';
      request: ReasonRequest;
      deps: WithReceipts;
      excluded: Exclusion[];
      flushHealth: () => void;
      recordFailure: (error: unknown, stream: boolean) => void;
      recordAnswer: (response: ReasonResponse, stream: boolean) => void;
    };

async function start(c: Context<AppEnv>, run: DoorRun): Promise<Started> {
  const startedAt = c.var.arrivedAt ?? performance.now();
  const arrivedAt = Date.now();
  const caller = c.var.caller;
  const request = pipelineRequestOf(run.request);
  const problems = committedRequestProblems(request);
  if (problems.length > 0) throw iJsonError(problems);
  const receiptId = request.receiptId;
  const recordFailure = (error: unknown, stream: boolean) => {
    if (receiptId !== undefined) runInBackground(c, () => releaseClaim(c.env.DB, caller.tenant, receiptId));
    const record = usageOfFailure(caller, error, performance.now() - startedAt, stream, arrivedAt);
    runInBackground(c, () => writeUsage(c.env.DB, { ...record, route: run.route }));
  };
  const recordAnswer = (response: ReasonResponse, stream: boolean) => {
    const record = usageOfResponse(caller, response, stream, arrivedAt);
    runInBackground(c, () => writeUsage(c.env.DB, { ...record, route: run.route }));
  };
  if (receiptId !== undefined) {
    const claim = await claimReceiptId(
      caller.tenant,
      { ...request, receiptId },
      { db: c.env.DB, now: Date.now, sleep: (ms) => new Promise((r) => setTimeout(r, ms)), waitMs: 30_000 },
    );
    if (claim.kind === 'replay') return { kind: 'replay', response: claim.response as ReasonResponse };
  }
  const context = await reasonContextOf(c, startedAt);
  const scope = scopeToPrivacy(context.deps.catalog, run.privacy);
  const deps = {
    ...context.deps,
    catalog: scope.catalog,
    issueReceipt: receiptHookFor(c.env, caller.tenant),
  };
  return {
    kind: 'run',
    request,
    deps,
    excluded: scope.excluded,
    flushHealth: context.flushHealth,
    recordFailure,
    recordAnswer,
  };
}

/** The signed Reason response of a JSON call (or the replay of an earlier call with the same receiptId). */
export async function answerJson(c: Context<AppEnv>, run: DoorRun): Promise<ReasonResponse> {
  const started = await start(c, run);
  if (started.kind === 'replay') return started.response;
  const { request, deps } = started;
  try {
    const prepared = await prepare(request, deps, started.excluded);
    tune(prepared, run.request);
    let result: Awaited<ReturnType<typeof callAttempts>>;
    try {
      result = await callWithRepair(prepared, (modelRequest) =>
        callAttempts(prepared.plan, prepared.budget, modelRequest, callDepsOf(deps)),
      );
    } finally {
      await prepared.admission?.settle(prepared.budget.spentUsd);
    }
    const latency = deps.now() - deps.startedAt;
    const answer = answerOf(prepared, result.value, result.attempt, result.attempts, latency);
    const response: ReasonResponse = { ...answer, receipt: await deps.issueReceipt(request, answer) };
    started.recordAnswer(response, false);
    return response;
  } catch (error) {
    started.recordFailure(error, false);
    throw error;
  } finally {
    started.flushHealth();
  }
}

export interface DoorStream {
  events: AsyncIterable<StreamEvent>;
  /** Known before the first event: the stream's answer will carry it. */
  receiptId: string;
  /** Aborts the upstream call when the caller goes away. */
  abort: AbortController;
}

async function* replayEvents(response: ReasonResponse): AsyncIterable<StreamEvent> {
  yield { type: 'response.created', receiptId: response.receiptId, model: response.model };
  const output = response.output;
  const text = output.format === 'text' ? output.text : JSON.stringify(output.value);
  if (text !== '' && text !== 'null') yield { type: 'response.output_text.delta', delta: text };
  yield { type: 'response.completed', response };
}

/** Valve's events of a streamed call; planning and admission failures throw before any event. */
export async function answerStream(c: Context<AppEnv>, run: DoorRun): Promise<DoorStream> {
  const started = await start(c, run);
  const abort = new AbortController();
  if (started.kind === 'replay')
    return { events: replayEvents(started.response), receiptId: started.response.receiptId, abort };
  const { request, deps } = started;
  let prepared: PreparedReason;
  try {
    prepared = await prepare(request, deps, started.excluded);
  } catch (error) {
    started.recordFailure(error, true);
    started.flushHealth();
    throw error;
  }
  tune(prepared, run.request);
  let ended: () => void = () => undefined;
  runInBackground(c, () => new Promise<void>((resolve) => (ended = resolve)));
  const events = streamReason(prepared, deps, {
    requestId: c.var.requestId,
    signal: abort.signal,
    onEnd: (event) => {
      started.flushHealth();
      const end = endOf(event);
      if (end && 'response' in end) started.recordAnswer(end.response as ReasonResponse, true);
      else if (end) started.recordFailure(end.error, true);
      ended();
    },
  });
  return { events, receiptId: prepared.receiptId, abort };
}
