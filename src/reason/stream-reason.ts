import type { ReasonResponse, UnsignedResponse } from '../contracts/reason-response';
import type { ModelRequest } from '../model/model-request';
import type { ModelResponse } from '../model/model-response';
import { budgetLeft } from '../policy/budget';
import { costOf } from '../policy/cost-of';
import { expectedSilenceMs, stallLimitMs } from '../policy/stall-limit';
import { modelFailure } from '../providers/model-error';
import { adapterFor } from '../providers/registry';
import { errorEvent } from '../streaming/error-event';
import { EventQueue } from '../streaming/event-queue';
import { isTerminal, type StreamEvent } from '../streaming/stream-events';
import { answerOf } from './answer-of';
import { aiBindingOf, callDepsOf } from './call-attempts';
import { callWithRepair, forModel } from './check-output';
import type { PreparedReason, ReasonDeps } from './prepare-reason';
import { type AttemptInput, type AttemptResult, runAttempts } from './run-attempts';
import { StreamAssembler } from './stream-assembler';

export interface StreamReasonOptions {
  requestId: string;
  /** Aborted when the caller disconnects: the upstream request is aborted with it. */
  signal: AbortSignal;
  /** Called with the terminal event, even when the caller has gone (usage records, health). */
  onEnd?: (event: StreamEvent) => void;
}

/** A streamed answer: what was sent, and whether the caller's own budget stopped it. */
type Streamed = ModelResponse & { cancelled?: 'budget' };

/**
 * The streaming pipeline (api.md "Streaming"): the same plan, budget, attempt loop, JSON repair and
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
  const push = queue.push.bind(queue);
  queue.push = (event) => {
    push(event);
    if (isTerminal(event)) options.onEnd?.(event);
  };
  void produce(prepared, deps, options, queue).finally(() => queue.close());
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
  const created = (input: AttemptInput) => {
    if (emitted) return;
    emitted = true;
    const { provider, model, region } = input.attempt;
    queue.push({
      type: 'response.created',
      receiptId: prepared.receiptId,
      model: { provider, model, region },
    });
  };
  const attemptFn = (modelRequest: ModelRequest) => async (input: AttemptInput) => {
    const assembler = new StreamAssembler({
      request,
      tainted: prepared.prompt.tainted,
      holdText,
      emit: (event) => {
        if (sealed || options.signal.aborted) return;
        created(input);
        queue.push(event);
      },
    });
    current = { input, assembler };
    return streamAttempt(prepared, deps, options, modelRequest, input, assembler);
  };
  const loop = (modelRequest: ModelRequest) =>
    runAttempts(plan, budget, attemptFn(modelRequest), {
      ...callDepsOf(deps),
      committed: () => emitted || options.signal.aborted,
    });
  const latency = () => deps.now() - deps.startedAt;
  try {
    const result = await callWithRepair<Streamed>(prepared, loop);
    sealed = true;
    const answer = answerOf(prepared, result.value, result.attempt, result.attempts, latency());
    const { provider, model, region } = result.attempt;
    if (!emitted) {
      emitted = true;
      queue.push({
        type: 'response.created',
        receiptId: prepared.receiptId,
        model: { provider, model, region },
      });
    }
    // JSON is sent once it validated, as one delta whose text parses to exactly `output.value`.
    if (answer.output.format === 'json' && answer.output.value !== null)
      queue.push({ type: 'response.output_text.delta', delta: JSON.stringify(answer.output.value) });
    await finishWith(answer, result.value.cancelled, prepared, deps, queue);
  } catch (error) {
    sealed = true;
    const now = deps.now();
    const deadline = request.modelPolicy?.maxLatencyMs !== undefined && budgetLeft(budget, now).timeMs <= 1;
    if (emitted && current && deadline && !options.signal.aborted && isTimeout(error)) {
      current.assembler.abortOpen('response.cancelled', 'Generation stopped at the caller’s maxLatencyMs.');
      const trace = traceOf(error);
      const partial = current.assembler.partial('other', plan.needs.inputTokens);
      const answer = answerOf(prepared, partial, current.input.attempt, trace, latency());
      await finishWith(answer, 'deadline', prepared, deps, queue);
    } else {
      current?.assembler.abortOpen('response.error', 'The response failed before this call completed.');
      queue.push(
        errorEvent(error, options.requestId, emitted, {
          inputTokens: emitted ? plan.needs.inputTokens : 0,
          outputTokens: current?.assembler.outputTokens() ?? 0,
        }),
      );
    }
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
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'model.timeout';
}

function traceOf(error: unknown): ReasonResponse['decision']['attempts'] {
  const details = (error as { details?: { decision?: { attempts?: unknown } } }).details;
  const attempts = details?.decision?.attempts;
  return Array.isArray(attempts) ? (attempts as ReasonResponse['decision']['attempts']) : [];
}

/** One streamed attempt: the adapter's stream through the assembler, stopped early by the budget. */
async function streamAttempt(
  prepared: PreparedReason,
  deps: ReasonDeps,
  options: StreamReasonOptions,
  modelRequest: ModelRequest,
  input: AttemptInput,
  assembler: StreamAssembler,
): Promise<AttemptResult<Streamed>> {
  const { attempt, maxTokens, timeLeftMs, reserveMs } = input;
  const adapter = adapterFor(attempt);
  const needs = prepared.plan.needs;
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
  const parts = adapter.stream(
    {
      ...forModel(modelRequest, attempt.entry),
      settings: { ...modelRequest.settings, max_tokens: maxTokens },
    },
    {
      model: attempt.model,
      signal: AbortSignal.any([input.signal, options.signal, upstream.signal]),
      fetch: deps.fetch,
      apiKey: attempt.providerConfig.apiKeyEnv ? deps.secret(attempt.providerConfig.apiKeyEnv) : undefined,
      baseUrl: attempt.providerConfig.baseUrl,
      headers: attempt.providerConfig.headers,
      ai: aiBindingOf(attempt.providerConfig, deps.binding),
      // Silence before the first byte or between chunks is a stall (policy/stall-limit), as on the JSON
      // path: before content it fails over in time; after it, it ends the stream with a timeout error.
      idleTimeoutMs: stallLimitMs({
        expectedMs: expectedSilenceMs(attempt.speed, maxTokens, true),
        timeLeftMs,
        reserveMs,
      }),
      config: attempt.entry.simulate,
    },
  );
  for await (const part of parts) {
    if (part.type === 'finish') {
      const value: Streamed = assembler.finish(part);
      if (budgetBound && part.finish_reason === 'length') value.cancelled = 'budget';
      return { value, usage: value.usage, costUsd: costOf(value.usage, attempt.entry), ttftMs };
    }
    ttftMs ??= deps.now() - began;
    if (budgetBound && assembler.outputTokens(part.delta) > maxTokens) {
      // The provider did not stop at max_tokens: Valve stops it before the delta the money cannot pay for.
      upstream.abort();
      const value: Streamed = { ...assembler.partial('length', needs.inputTokens), cancelled: 'budget' };
      return { value, usage: value.usage, costUsd: costOf(value.usage, attempt.entry), ttftMs };
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
