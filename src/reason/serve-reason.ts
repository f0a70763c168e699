import type { Caller } from '../contracts/caller';
import type { ReasonRequest } from '../contracts/reason-request';
import type { MaybeSignedResponse, ReasonResponse } from '../contracts/reason-response';
import type { Claimed, Issuance } from '../issuance/create-issuance';
import type { HeldClaim } from '../issuance/held-claim';
import type { IssueReceipt } from '../issuance/issue-receipt';
import { checkTextBytes } from '../media/check-text-bytes';
import { type RequestMedia, readMedia } from '../media/read-media';
import { iJsonError } from '../receipts/i-json-error';
import { committedRequestProblems } from '../receipts/receipt-fields';
import type { UsageRecord } from '../storage/usage-records';
import type { StreamEvent } from '../streaming/stream-events';
import { type InstructionSource, lintInstructionSources } from './lint-instruction-sources';
import { type PreparedReason, prepareReason, type ReasonDeps, type ReasonOptions } from './prepare-reason';
import { answerReason } from './run-reason';
import { streamReason } from './stream-reason';
import { usageOfFailure, usageOfResponse } from './to-usage-record';

/**
 * What one request to POST /v1/reason does besides the pipeline's own stages, each named: its receipt
 * (issuance/: the claim of a `receiptId`, its replay, the signed and logged receipt), the model call
 * (the pipeline's dependencies), and the usage record.
 */
export interface ServeDeps {
  caller: Caller;
  requestId: string;
  /** Date.now() when the request arrived, for its usage record. */
  arrivedAt: number;
  /** The receipt: claims and replays of a `receiptId`, and the receipt hook fenced by the claim. */
  issuance: Issuance;
  /** The model call: the pipeline's dependencies, built only once the request is not a replay. */
  pipeline: () => Promise<{ deps: ReasonDeps; flushHealth: () => void }>;
  /** The record's write to keep alive, or undefined when it rides in a batch another request keeps. */
  writeUsage: (record: UsageRecord) => Promise<void> | undefined;
  /** Work that must not hold up the answer (usage, health, releases): kept alive, never awaited. */
  background: (work: () => Promise<unknown> | undefined) => void;
  /** The body's size and the limit on what in it is not media (media/check-text-bytes). */
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
 * What every POST /v1/reason does before the pipeline: the size of its text, the lint of a door's
 * instruction parts, the I-JSON check of what the receipt commits to, and the idempotency claim of a
 * `receiptId` (a repeat gets the stored answer back). A request refused here leaves no usage record.
 */
async function claimRequest(
  request: ReasonRequest,
  media: RequestMedia,
  deps: ServeDeps,
  options: ServeOptions,
): Promise<Claimed> {
  if (deps.body) checkTextBytes(media, deps.body);
  lintInstructionSources(options.instructionSources ?? []);
  const problems = committedRequestProblems(request);
  if (problems.length > 0) throw iJsonError(problems);
  return deps.issuance.claim(request);
}

/** A request ready for its model call: prepared, its receipt hook fenced by its claim. */
interface Begun {
  prepared: PreparedReason;
  reasonDeps: ReasonDeps & { issueReceipt: IssueReceipt };
  flushHealth: () => void;
  recordFailure: (error: unknown) => void;
}

/**
 * The pipeline's dependencies and the prepared request (render, plan, admission), the same for both
 * answer paths. A request that fails here releases its claim and leaves a failure usage record.
 */
async function begin(
  request: ReasonRequest,
  media: RequestMedia,
  claim: HeldClaim | undefined,
  stream: boolean,
  deps: ServeDeps,
  options: ServeOptions,
): Promise<Begun> {
  let pipeline: Awaited<ReturnType<ServeDeps['pipeline']>>;
  try {
    pipeline = await deps.pipeline();
  } catch (error) {
    claim?.stop();
    if (claim) deps.background(() => claim.release());
    throw error;
  }
  const reasonDeps = { ...pipeline.deps, issueReceipt: deps.issuance.issuer(claim) };
  const recordFailure = failureRecorder(claim, stream, deps, reasonDeps, options);
  try {
    const prepared = await prepareReason(request, reasonDeps, options, media);
    return { prepared, reasonDeps, flushHealth: pipeline.flushHealth, recordFailure };
  } catch (error) {
    claim?.stop();
    pipeline.flushHealth();
    recordFailure(error);
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

/** POST /v1/reason answered as one JSON body: claim, prepare, model call, receipt, then usage and health. */
export async function serveAnswer(
  request: ReasonRequest,
  deps: ServeDeps,
  options: ServeOptions = {},
): Promise<ServedAnswer> {
  const media = readMedia(request);
  const claimed = await claimRequest(request, media, deps, options);
  if (claimed.replay) return { response: claimed.replay, replayed: true };
  const { claim } = claimed;
  const { prepared, reasonDeps, flushHealth, recordFailure } = await begin(
    request,
    media,
    claim,
    false,
    deps,
    options,
  );
  try {
    const response = await answerReason(prepared, reasonDeps);
    recordUsage(deps, options, usageOfResponse(deps.caller, response, false, deps.arrivedAt));
    return { response, replayed: false };
  } catch (error) {
    recordFailure(error);
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
  const media = readMedia(request);
  const claimed = await claimRequest(request, media, deps, options);
  if (claimed.replay) {
    const { receiptId } = claimed.replay;
    return { events: replayEvents(claimed.replay), abort: new AbortController(), replayed: true, receiptId };
  }
  const { claim } = claimed;
  const { prepared, reasonDeps, flushHealth, recordFailure } = await begin(
    request,
    media,
    claim,
    true,
    deps,
    options,
  );
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
