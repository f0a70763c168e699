import type { MaybeSignedResponse, UnsignedResponse } from '../contracts/reason-response';
import { ApiError } from '../errors';
import type { ModelRequest } from '../model/model-request';
import type { ModelResponse } from '../model/model-response';
import { budgetLeft } from '../policy/budget';
import { costOf } from '../policy/cost-of';
import type { Plan, PlannedAttempt } from '../policy/plan-types';
import { modelFailure } from '../providers/model-error';
import { adapterFor } from '../providers/registry';
import { errorEvent } from '../streaming/error-event';
import { EventQueue } from '../streaming/event-queue';
import type { StreamEvent } from '../streaming/stream-events';
import { answerOf } from './answer-of';
import { AttemptsFailedError } from './attempts-failed-error';
import { attemptRequest, callDepsOf, callOptionsOf } from './call-options';
import { callWithRepair } from './check-output';
import type { PreparedReason, ReasonDeps } from './prepare-reason';
import { type AttemptInput, type AttemptResult, runAttempts } from './run-attempts';
import { StreamAssembler } from './stream-assembler';
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

/** A streamed answer: what was sent, and whether the caller's own budget stopped it. */
type Streamed = ModelResponse & { cancelled?: 'budget' };

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

async function produce(
  prepared: PreparedReason,
  deps: ReasonDeps,
  options: StreamReasonOptions,
  queue: EventQueue<StreamEvent>,
): Promise<void> {
  const { request, plan, budget, admission } = prepared;
  const holdText = request.output?.format === 'json';
  let emitted = false;
  // Set once the outcome is decided: nothing the still-closing upstream yields is sent after it.
  let sealed = false;
  let current: { input: AttemptInput; assembler: StreamAssembler } | undefined;
  const created = (attempt: PlannedAttempt) => {
    if (emitted) return;
    emitted = true;
    const { provider, model, region } = attempt;
    queue.push({
      type: 'response.created',
      receiptId: prepared.receiptId,
      model: { provider, model, region },
    });
  };
  const attemptFn = (modelRequest: ModelRequest, attemptPlan: Plan) => async (input: AttemptInput) => {
    const assembler = new StreamAssembler({
      request,
      tainted: prepared.prompt.tainted,
      holdText,
      emit: (event) => {
        if (sealed || options.signal.aborted) return;
        created(input.attempt);
        queue.push(event);
      },
    });
    current = { input, assembler };
    return streamAttempt(prepared, attemptPlan, deps, options, modelRequest, input, assembler);
  };
  const loop = (modelRequest: ModelRequest, attemptPlan: Plan) =>
    runAttempts(attemptPlan, budget, attemptFn(modelRequest, attemptPlan), {
      ...callDepsOf(deps),
      stream: true,
      committed: () => emitted || options.signal.aborted,
    });
  const latency = () => deps.now() - deps.startedAt;
  try {
    const result = await callWithRepair<Streamed>(prepared, loop);
    sealed = true;
    const value = withWarnings(result.value, result.warnings);
    const answer = answerOf(prepared, value, result.attempt, result.attempts, latency(), result.json);
    created(result.attempt);
    // JSON is sent once it validated, as one delta whose text parses to exactly `output.value`.
    if (answer.output.format === 'json' && answer.output.value !== null)
      queue.push({ type: 'response.output_text.delta', delta: JSON.stringify(answer.output.value) });
    await finishWith(answer, value.cancelled, prepared, deps, queue, options);
  } catch (error) {
    sealed = true;
    const now = deps.now();
    const deadline = request.modelPolicy?.maxLatencyMs !== undefined && budgetLeft(budget, now).timeMs <= 1;
    let failure = error;
    if (emitted && current && deadline && !options.signal.aborted && isTimeout(error)) {
      current.assembler.abortOpen('response.cancelled', 'Generation stopped at the caller’s maxLatencyMs.');
      const trace = error instanceof AttemptsFailedError ? error.attempts : [];
      const partial = current.assembler.partial('other', plan.needs.inputTokens);
      const answer = answerOf(prepared, partial, current.input.attempt, trace, latency());
      try {
        await finishWith(answer, 'deadline', prepared, deps, queue, options);
        return;
      } catch (receiptError) {
        // The cancelled answer could not be signed: the stream still ends, with an error event.
        failure = receiptError;
      }
    }
    current?.assembler.abortOpen('response.error', 'The response failed before this call completed.');
    queue.push(
      errorEvent(failure, options.requestId, emitted, {
        inputTokens: emitted ? plan.needs.inputTokens : 0,
        outputTokens: current?.assembler.outputTokens() ?? 0,
      }),
    );
    options.onEnd?.({ error: failure });
  } finally {
    await admission?.settle(budget.spentUsd);
  }
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
    ? { ...unsigned, receipt: await deps.issueReceipt(prepared.request, unsigned) }
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

/** One streamed attempt: the adapter's stream through the assembler, stopped early by the budget. */
async function streamAttempt(
  prepared: PreparedReason,
  plan: Plan,
  deps: ReasonDeps,
  options: StreamReasonOptions,
  modelRequest: ModelRequest,
  input: AttemptInput,
  assembler: StreamAssembler,
): Promise<AttemptResult<Streamed>> {
  const { attempt, maxTokens } = input;
  const adapter = adapterFor(attempt);
  const needs = plan.needs;
  const naturalCap = Math.min(
    needs.maxOutputTokens ?? Number.POSITIVE_INFINITY,
    attempt.entry.maxOutputTokens,
    attempt.entry.contextTokens - needs.inputTokens,
  );
  // max_tokens below the natural cap means the caller's maxCostUsd bound it: reaching it is a cancel.
  const budgetBound = maxTokens < naturalCap && prepared.request.output?.format !== 'json';
  const upstream = new AbortController();
  const began = deps.now();
  let ttftMs: number | undefined;
  // A stall before content fails over in time; after it, it ends the stream with a timeout error.
  const parts = adapter.stream(
    attemptRequest(modelRequest, input),
    callOptionsOf(input, callDepsOf(deps), AbortSignal.any([input.signal, options.signal, upstream.signal])),
  );
  for await (const part of parts) {
    if (part.type === 'finish') {
      const value: Streamed = assembler.finish(part);
      if (budgetBound && part.finish_reason === 'length') value.cancelled = 'budget';
      return { value, usage: value.usage, costUsd: costOf(value.usage, attempt.entry), ttftMs };
    }
    ttftMs ??= deps.now() - began;
    if (assembler.outputTokens(part.delta) > maxTokens) {
      // The provider did not stop at max_tokens: Valve stops reading before the delta the attempt's
      // worst case does not cover, counts what was written, and says so (model.over_budget).
      upstream.abort();
      const value: Streamed = assembler.partial('length', needs.inputTokens);
      if (budgetBound) value.cancelled = 'budget';
      return {
        value,
        usage: value.usage,
        costUsd: costOf(value.usage, attempt.entry),
        ttftMs,
        cutAtCap: true,
      };
    }
    assembler.add(part.delta);
  }
  throw modelFailure({
    kind: 'invalid_response',
    message: `The ${attempt.provider} stream ended without a finish; the answer is incomplete.`,
    provider: attempt.provider,
    model: attempt.model,
    dispatch: 'streaming',
    emitted_deltas: true,
  });
}
