import type { MaybeSignedResponse, UnsignedResponse } from '../contracts/reason-response';
import { ApiError } from '../errors';
import type { ModelRequest } from '../model/model-request';
import { budgetLeft } from '../policy/budget';
import type { Plan, PlannedAttempt } from '../policy/plan-types';
import { errorEvent } from '../streaming/error-event';
import { EventQueue } from '../streaming/event-queue';
import type { StreamEvent } from '../streaming/stream-events';
import { answerOf } from './answer-of';
import { AttemptsFailedError } from './attempts-failed-error';
import { callWithRepair } from './check-output';
import { issueAnswer } from './issue-answer';
import type { PreparedReason, ReasonDeps } from './prepare-reason';
import { type AttemptInput, runAttempts } from './run-attempts';
import { StreamAssembler } from './stream-assembler';
import { type Streamed, streamAttempt } from './stream-attempt';
import { withWarnings } from './with-warnings';

export interface StreamReasonOptions {
  requestId: string;
  /** Aborted when the caller disconnects: the upstream request is aborted with it. */
  signal: AbortSignal;
  /** Called once the terminal event is queued, even when the caller has gone (usage records, health). */
  onEnd?: (end: StreamEnd) => void;
}

/** How a stream ended: the answer its terminal event carried, or the failure its error event reported. */
export type StreamEnd = { response: MaybeSignedResponse } | { error: unknown };

/**
 * The streaming pipeline (README "Streaming"): the same plan, budget, attempt loop, JSON repair and
 * response as runReason, as events. `response.created` and content are held until the first real
 * content delta; before it the loop fails over freely, after it a failure ends the stream with
 * `response.error` and `emittedDeltas: true`. Generation stopped by the caller's `maxLatencyMs` or
 * `maxCostUsd` ends with `response.cancelled` and the partial output. Exactly one terminal event.
 */
export function streamReason(
  prepared: PreparedReason,
  deps: ReasonDeps,
  options: StreamReasonOptions,
): AsyncIterable<StreamEvent> {
  const queue = new EventQueue<StreamEvent>();
  void produce(prepared, deps, options, queue)
    .catch((error: unknown) => {
      // produce ends every stream with one terminal event itself; this is only what its own error
      // handling threw (for example an onEnd hook), logged by kind, never by content.
      console.error(
        JSON.stringify({ event: 'stream.producer_failed', kind: (error as Error)?.name ?? 'unknown' }),
      );
    })
    .finally(() => queue.close());
  return queue;
}

/** The attempt being read: its input and the assembler its deltas go through. */
interface Current {
  input: AttemptInput;
  assembler: StreamAssembler;
}

/** One stream as it runs: what it was given, and how far it got. */
interface StreamRun {
  prepared: PreparedReason;
  deps: ReasonDeps;
  options: StreamReasonOptions;
  queue: EventQueue<StreamEvent>;
  emitted: boolean;
  /** Set once the outcome is decided: nothing the still-closing upstream yields is sent after it. */
  sealed: boolean;
  current?: Current;
}

async function produce(
  prepared: PreparedReason,
  deps: ReasonDeps,
  options: StreamReasonOptions,
  queue: EventQueue<StreamEvent>,
): Promise<void> {
  const { budget, admission } = prepared;
  const run: StreamRun = { prepared, deps, options, queue, emitted: false, sealed: false };
  try {
    const result = await callWithRepair<Streamed>(prepared, attemptLoop(run));
    run.sealed = true;
    const value = withWarnings(result.value, result.warnings);
    const answer = answerOf(prepared, value, result.attempt, result.attempts, latency(run), result.json);
    created(run, result.attempt);
    // JSON is sent once it validated, as one delta whose text parses to exactly `output.value`.
    if (answer.output.format === 'json' && answer.output.value !== null)
      queue.push({ type: 'response.output_text.delta', delta: JSON.stringify(answer.output.value) });
    await finishWith(answer, value.cancelled, prepared, deps, queue, options);
  } catch (error) {
    run.sealed = true;
    await failStream(run, error);
  } finally {
    await admission?.settle(budget.spentUsd);
  }
}

function latency(run: StreamRun): number {
  return run.deps.now() - run.deps.startedAt;
}

/** Sends `response.created` once, before the first content or the answer. */
function created(run: StreamRun, attempt: PlannedAttempt): void {
  if (run.emitted) return;
  run.emitted = true;
  const { provider, model, region } = attempt;
  run.queue.push({
    type: 'response.created',
    receiptId: run.prepared.receiptId,
    model: { provider, model, region },
  });
}

function attemptLoop(run: StreamRun) {
  const { prepared, deps, options } = run;
  return (modelRequest: ModelRequest, attemptPlan: Plan) =>
    runAttempts(attemptPlan, prepared.budget, attemptWith(run, modelRequest, attemptPlan), {
      ...deps,
      stream: true,
      committed: () => run.emitted || options.signal.aborted,
    });
}

function attemptWith(run: StreamRun, modelRequest: ModelRequest, attemptPlan: Plan) {
  const { prepared, deps, options } = run;
  return async (input: AttemptInput) => {
    const assembler = new StreamAssembler({
      request: prepared.request,
      tainted: prepared.prompt.tainted,
      documents: prepared.prompt.documents,
      holdText: prepared.request.output?.format === 'json',
      emit: (event) => {
        if (run.sealed || options.signal.aborted) return;
        created(run, input.attempt);
        run.queue.push(event);
      },
    });
    run.current = { input, assembler };
    return streamAttempt(prepared, attemptPlan, deps, options.signal, modelRequest, input, assembler);
  };
}

/** Ends a failed stream: as cancelled when the caller's deadline cut it after content, else with an error event. */
async function failStream(run: StreamRun, error: unknown): Promise<void> {
  const { prepared, deps, options, queue } = run;
  let failure = error;
  const current = cutAtDeadline(run, error);
  if (current) {
    current.assembler.abortOpen('response.cancelled', 'Generation stopped at the caller’s maxLatencyMs.');
    const trace = error instanceof AttemptsFailedError ? error.attempts : [];
    const partial = current.assembler.partial('other', prepared.plan.needs.inputTokens);
    const answer = answerOf(prepared, partial, current.input.attempt, trace, latency(run));
    try {
      await finishWith(answer, 'deadline', prepared, deps, queue, options);
      return;
    } catch (receiptError) {
      // The cancelled answer could not be signed: the stream still ends, with an error event.
      failure = receiptError;
    }
  }
  run.current?.assembler.abortOpen('response.error', 'The response failed before this call completed.');
  queue.push(
    errorEvent(failure, options.requestId, run.emitted, {
      inputTokens: run.emitted ? prepared.plan.needs.inputTokens : 0,
      outputTokens: run.current?.assembler.outputTokens() ?? 0,
    }),
  );
  options.onEnd?.({ error: failure });
}

/** The attempt the caller's maxLatencyMs cut after content was sent, if that is how the stream failed. */
function cutAtDeadline(run: StreamRun, error: unknown): Current | undefined {
  const { request, budget } = run.prepared;
  const now = run.deps.now();
  const deadline = request.modelPolicy?.maxLatencyMs !== undefined && budgetLeft(budget, now).timeMs <= 1;
  const { current } = run;
  if (run.emitted && current && deadline && !run.options.signal.aborted && isTimeout(error)) return current;
  return undefined;
}

async function finishWith(
  unsigned: UnsignedResponse,
  cancelled: 'budget' | 'deadline' | undefined,
  prepared: PreparedReason,
  deps: ReasonDeps,
  queue: EventQueue<StreamEvent>,
  options: StreamReasonOptions,
): Promise<void> {
  // The receipt commits to exactly the output the caller received, through the JSON route's hook.
  const answer = deps.issueReceipt
    ? await issueAnswer(prepared.request, unsigned, { ...deps, issueReceipt: deps.issueReceipt })
    : unsigned;
  queue.push(
    cancelled
      ? { type: 'response.cancelled', reason: cancelled, response: answer }
      : { type: 'response.completed', response: answer },
  );
  options.onEnd?.({ response: answer });
}

function isTimeout(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'model.timeout';
}
