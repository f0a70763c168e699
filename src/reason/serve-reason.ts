import type { Caller } from '../contracts/caller';
import type { ReasonRequest } from '../contracts/reason-request';
import type { MaybeSignedResponse, ReasonResponse } from '../contracts/reason-response';
import { iJsonError } from '../receipts/i-json-error';
import { committedRequestProblems } from '../receipts/receipt-fields';
import type { UsageRecord } from '../storage/usage-records';
import type { StreamEvent } from '../streaming/stream-events';
import { checkTextBytes } from './check-text-bytes';
import type { HeldClaim } from './held-claim';
import { type ClaimDeps, claimReceiptId } from './idempotency';
import { type InstructionSource, lintInstructionSources } from './lint-instruction-sources';
import { type IssueReceipt, prepareReason, type ReasonDeps, type ReasonOptions } from './prepare-reason';
import { runReason } from './run-reason';
import { streamReason } from './stream-reason';
import { usageOfFailure, usageOfResponse } from './to-usage-record';

/** Everything one request to POST /v1/reason needs besides the request itself. */
export interface ServeDeps {
  caller: Caller;
  requestId: string;
  /** Date.now() when the request arrived, for its usage record. */
  arrivedAt: number;
  /** Idempotency claims of a `receiptId` (D1) and the log that completes an unsaved receipt. */
  claims: ClaimDeps;
  /** The pipeline's dependencies, built only once the request is not a replay; its receipt is fenced by `claim`. */
  pipeline: (
    claim: HeldClaim | undefined,
  ) => Promise<{ deps: ReasonDeps & { issueReceipt: IssueReceipt }; flushHealth: () => void }>;
  /** The record's write to keep alive, or undefined when it rides in a batch another request keeps. */
  writeUsage: (record: UsageRecord) => Promise<void> | undefined;
  /** Work that must not hold up the answer (usage, health, releases): kept alive, never awaited. */
  background: (work: () => Promise<unknown> | undefined) => void;
  /** The body's size and the limit on what in it is not media (reason/check-text-bytes). */
  body?: { bytes?: number; limit: number };
}

/** How a door other than POST /v1/reason serves its derived requests: the pipeline's options, its route. */
export interface ServeOptions extends ReasonOptions {
  /** The route its usage records name; POST /v1/reason by default. */
  route?: string;
  /** The parts of the door's body its instructions were joined from, each linted with the door's own 400. */
  instructionSources?: readonly InstructionSource[];
}

/** A whole answer: the pipeline's, or the stored one a repeated `receiptId` replays. */
export type ServedAnswer =
  | { response: ReasonResponse; replayed: false }
  | { response: MaybeSignedResponse; replayed: true };

/** A stream's events, and the abort that a disconnect of the caller fires. */
export interface ServedEvents {
  events: AsyncIterable<StreamEvent>;
  abort: AbortController;
  replayed: boolean;
  /** Known before the first event: the id the stream's answer and receipt carry. */
  receiptId: string;
}

/** A replayed answer as a stream: the events of a stream whose content is already known. */
async function* replayEvents(response: MaybeSignedResponse): AsyncGenerator<StreamEvent> {
  yield { type: 'response.created', receiptId: response.receiptId, model: response.model };
  yield { type: 'response.completed', response };
}

/**
 * What every POST /v1/reason does before the pipeline: the lint of a door's instruction parts, the
 * I-JSON check of what the receipt commits to, and the idempotency claim of a `receiptId` (a repeat
 * gets the stored answer back). A request refused here leaves no usage record.
 */
async function claimRequest(
  request: ReasonRequest,
  deps: ServeDeps,
  options: ServeOptions,
): Promise<{ replay?: MaybeSignedResponse; claim?: HeldClaim }> {
  lintInstructionSources(options.instructionSources ?? []);
  const problems = committedRequestProblems(request);
  if (problems.length > 0) throw iJsonError(problems);
  const { receiptId } = request;
  if (receiptId === undefined) return {};
  const claim = await claimReceiptId(deps.caller.tenant, { ...request, receiptId }, deps.claims);
  // The stored copy is an answer this pipeline returned, opened with the caller's own salt.
  return claim.kind === 'replay' ? { replay: claim.response as MaybeSignedResponse } : { claim: claim.claim };
}

/** The pipeline's dependencies for a request holding `claim`; a claim it cannot use is released. */
async function pipelineFor(claim: HeldClaim | undefined, deps: ServeDeps) {
  try {
    return await deps.pipeline(claim);
  } catch (error) {
    claim?.stop();
    if (claim) deps.background(() => claim.release());
    throw error;
  }
}

/** Writes a usage record after the answer, under the route that served it. */
function recordUsage(deps: ServeDeps, options: ServeOptions, record: UsageRecord): void {
  const routed = options.route === undefined ? record : { ...record, route: options.route };
  deps.background(() => deps.writeUsage(routed));
}

/** The usage record and claim release of a request that failed, written after the answer. */
function failureRecorder(
  claim: HeldClaim | undefined,
  stream: boolean,
  deps: ServeDeps,
  reasonDeps: ReasonDeps,
  options: ServeOptions,
) {
  return (error: unknown) => {
    const latencyMs = reasonDeps.now() - reasonDeps.startedAt;
    if (claim) deps.background(() => claim.release());
    recordUsage(deps, options, usageOfFailure(deps.caller, error, latencyMs, stream, deps.arrivedAt));
  };
}

/** POST /v1/reason answered as one JSON body: claim, pipeline, receipt, then usage and health. */
export async function serveAnswer(
  request: ReasonRequest,
  deps: ServeDeps,
  options: ServeOptions = {},
): Promise<ServedAnswer> {
  if (deps.body) checkTextBytes(request, deps.body);
  const { replay, claim } = await claimRequest(request, deps, options);
  if (replay) return { response: replay, replayed: true };
  const { deps: reasonDeps, flushHealth } = await pipelineFor(claim, deps);
  try {
    const response = await runReason(request, reasonDeps, options);
    recordUsage(deps, options, usageOfResponse(deps.caller, response, false, deps.arrivedAt));
    return { response, replayed: false };
  } catch (error) {
    failureRecorder(claim, false, deps, reasonDeps, options)(error);
    throw error;
  } finally {
    claim?.stop();
    flushHealth();
  }
}

/**
 * POST /v1/reason answered as events. Planning and admission errors are thrown before anything is
 * streamed, so they are plain HTTP errors as on the JSON path; after that every outcome is an event,
 * and the usage record and health write follow the terminal one.
 */
export async function serveEvents(
  request: ReasonRequest,
  deps: ServeDeps,
  options: ServeOptions = {},
): Promise<ServedEvents> {
  if (deps.body) checkTextBytes(request, deps.body);
  const { replay, claim } = await claimRequest(request, deps, options);
  if (replay) {
    const { receiptId } = replay;
    return { events: replayEvents(replay), abort: new AbortController(), replayed: true, receiptId };
  }
  const { deps: reasonDeps, flushHealth } = await pipelineFor(claim, deps);
  const recordFailure = failureRecorder(claim, true, deps, reasonDeps, options);
  let prepared: Awaited<ReturnType<typeof prepareReason>>;
  try {
    prepared = await prepareReason(request, reasonDeps, options);
  } catch (error) {
    claim?.stop();
    recordFailure(error);
    throw error;
  }
  const abort = new AbortController();
  let ended: () => void = () => undefined;
  // Keeps the request's background work alive until the stream's terminal event.
  deps.background(() => new Promise<void>((resolve) => (ended = resolve)));
  const events = streamReason(prepared, reasonDeps, {
    requestId: deps.requestId,
    signal: abort.signal,
    onEnd: (end) => {
      claim?.stop();
      flushHealth();
      if ('response' in end)
        recordUsage(deps, options, usageOfResponse(deps.caller, end.response, true, deps.arrivedAt));
      else recordFailure(end.error);
      ended();
    },
  });
  return { events, abort, replayed: false, receiptId: prepared.receiptId };
}
