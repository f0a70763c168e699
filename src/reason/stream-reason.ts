import type { MaybeSignedResponse, UnsignedResponse } from '../contracts/reason-response';
import { ApiError } from '../errors';
import type { ModelRequest } from '../model/model-request';
import type { MessageDelta, ModelResponse, StreamPart, Usage } from '../model/model-response';
import { knownInputTokens } from '../policy/attempt-limits';
import { budgetLeft } from '../policy/budget';
import { costOf } from '../policy/cost-of';
import type { Plan, PlannedAttempt } from '../policy/plan-types';
import { ModelCallError, modelFailure } from '../providers/model-error';
import { adapterFor } from '../providers/registry';
import { errorEvent } from '../streaming/error-event';
import { EventQueue } from '../streaming/event-queue';
import type { StreamEvent } from '../streaming/stream-events';
import { answerOf } from './answer-of';
import { AttemptsFailedError } from './attempts-failed-error';
import { attemptRequest, callOptionsOf } from './call-options';
import { callWithRepair } from './check-output';
import { countedUsage } from './counted-usage';
import { issueAnswer } from './issue-answer';
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
      documents: prepared.prompt.documents,
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
      ...deps,
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

/** How many deltas without content (an empty text, a signature) may come between the last content and the finish. */
const maxEmptyTail = 8;

function hasContent({ delta }: MessageDelta): boolean {
  if (delta.type === 'tool_call') return Boolean(delta.args_fragment || delta.name);
  if (delta.type === 'annotations') return false;
  return Boolean(delta.text);
}

/**
 * What follows a delta that crossed the attempt's cap: the finish, when it comes before any more content
 * (the provider stopped by itself), else the deltas read up to and with the next content, or up to a
 * failure of the stream.
 */
async function readTail(
  parts: AsyncIterator<StreamPart>,
): Promise<{ finish?: Extract<StreamPart, { type: 'finish' }>; deltas: MessageDelta[] }> {
  const deltas: MessageDelta[] = [];
  try {
    while (deltas.length <= maxEmptyTail) {
      const next = await parts.next();
      if (next.done) break;
      if (next.value.type === 'finish') return { finish: next.value, deltas };
      deltas.push(next.value.delta);
      if (hasContent(next.value.delta)) break;
    }
  } catch (error) {
    // The provider generated the crossing delta whatever failed after it: the attempt is counted as cut.
    if (!(error instanceof ModelCallError)) throw error;
  }
  return { deltas };
}

/**
 * One streamed attempt: the adapter's stream through the assembler, stopped early by the budget. Every
 * way it ends is counted at least at what the provider billed (countedUsage): its reported usage, or
 * Valve's own estimate where it reported none, or the attempt's worst case where Valve stopped reading.
 */
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
    attempt.entry.contextTokens - knownInputTokens(needs),
  );
  // max_tokens below the natural cap means the caller's maxCostUsd bound it: reaching it is a cancel.
  const budgetBound = maxTokens < naturalCap && prepared.request.output?.format !== 'json';
  const upstream = new AbortController();
  const began = deps.now();
  let ttftMs: number | undefined;
  const billedInput = Math.min(needs.inputTokens, attempt.entry.contextTokens);
  const read = (outputTokens: number) => ({ inputTokens: billedInput, outputTokens, maxTokens });
  // An answer Valve cannot read is the provider's failure, counted at what it billed for it.
  const unreadable = (usage: Usage) =>
    modelFailure({
      kind: 'invalid_response',
      message: `${attempt.provider} answered with tool-call arguments that Valve cannot read.`,
      provider: attempt.provider,
      model: attempt.model,
      dispatch: 'streaming',
      emitted_deltas: assembler.sent,
      usage,
    });
  const finished = (part: Extract<StreamPart, { type: 'finish' }>): AttemptResult<Streamed> => {
    const usage = countedUsage(part.usage, read(assembler.outputTokens()));
    if (assembler.unreadable) throw unreadable(usage);
    const value: Streamed = assembler.finish({ ...part, usage });
    if (budgetBound && part.finish_reason === 'length') value.cancelled = 'budget';
    return { value, usage, costUsd: costOf(usage, attempt.entry), ttftMs };
  };
  // A stall before content fails over in time; after it, it ends the stream with a timeout error.
  const parts = adapter
    .stream(
      attemptRequest(modelRequest, input),
      callOptionsOf(input, deps, AbortSignal.any([input.signal, options.signal, upstream.signal])),
    )
    [Symbol.asyncIterator]();
  try {
    for (let next = await parts.next(); !next.done; next = await parts.next()) {
      const part = next.value;
      if (part.type === 'finish') return finished(part);
      ttftMs ??= deps.now() - began;
      if (assembler.outputTokens(part.delta) <= maxTokens) {
        assembler.add(part.delta);
        continue;
      }
      // The delta crosses the cap as Valve counts it. A provider that keeps to max_tokens finishes here
      // (its whole answer in one delta, as Gemini sends it, or a count under Valve's conservative
      // estimate), and its finish carries what it billed: read on for it, and send the delta.
      const tail = await readTail(parts);
      if (tail.finish) {
        for (const delta of [part.delta, ...tail.deltas]) assembler.add(delta);
        return finished(tail.finish);
      }
      // It wrote on past max_tokens: Valve stops reading, sends nothing more, and counts at least the
      // attempt's worst case and everything read, the crossing delta included (model.over_budget).
      upstream.abort();
      const usage = countedUsage(undefined, read(assembler.outputTokens(part.delta, ...tail.deltas)));
      if (assembler.unreadable) throw unreadable(usage);
      const value: Streamed = { ...assembler.partial('length', needs.inputTokens), usage };
      if (budgetBound) value.cancelled = 'budget';
      return { value, usage, costUsd: costOf(usage, attempt.entry), ttftMs, cutAtCap: true };
    }
  } finally {
    await parts.return?.();
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
