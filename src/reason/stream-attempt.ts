import type { ModelRequest } from '../model/model-request';
import type { MessageDelta, ModelResponse, StreamPart, Usage } from '../model/model-response';
import { knownInputTokens } from '../policy/attempt-limits';
import { costOf } from '../policy/cost-of';
import type { Plan, PlannedAttempt } from '../policy/plan-types';
import { ModelCallError, modelFailure } from '../providers/model-error';
import { adapterFor } from '../providers/registry';
import { attemptRequest, callOptionsOf } from './call-options';
import { countedUsage } from './counted-usage';
import type { PreparedReason, ReasonDeps } from './prepare-reason';
import type { AttemptInput, AttemptResult } from './run-attempts';
import type { StreamAssembler } from './stream-assembler';

/** A streamed answer: what was sent, and whether the caller's own budget stopped it. */
export type Streamed = ModelResponse & { cancelled?: 'budget' };

type Finish = Extract<StreamPart, { type: 'finish' }>;

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
): Promise<{ finish?: Finish; deltas: MessageDelta[] }> {
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

/** One attempt as it is read: its limits, how it is billed, and when its first content came. */
interface AttemptRead {
  attempt: PlannedAttempt;
  assembler: StreamAssembler;
  maxTokens: number;
  inputTokens: number;
  billedInput: number;
  /** max_tokens below the natural cap means the caller's maxCostUsd bound it: reaching it is a cancel. */
  budgetBound: boolean;
  ttftMs?: number;
}

function attemptRead(
  prepared: PreparedReason,
  plan: Plan,
  input: AttemptInput,
  assembler: StreamAssembler,
): AttemptRead {
  const { attempt, maxTokens } = input;
  const needs = plan.needs;
  const naturalCap = Math.min(
    needs.maxOutputTokens ?? Number.POSITIVE_INFINITY,
    attempt.entry.maxOutputTokens,
    attempt.entry.contextTokens - knownInputTokens(needs),
  );
  return {
    attempt,
    assembler,
    maxTokens,
    inputTokens: needs.inputTokens,
    billedInput: Math.min(needs.inputTokens, attempt.entry.contextTokens),
    budgetBound: maxTokens < naturalCap && prepared.request.output?.format !== 'json',
  };
}

function readUsage(read: AttemptRead, outputTokens: number) {
  return { inputTokens: read.billedInput, outputTokens, maxTokens: read.maxTokens };
}

/** An answer Valve cannot read is the provider's failure, counted at what it billed for it. */
function unreadable(read: AttemptRead, usage: Usage) {
  return modelFailure({
    kind: 'invalid_response',
    message: `${read.attempt.provider} answered with tool-call arguments that Valve cannot read.`,
    provider: read.attempt.provider,
    model: read.attempt.model,
    dispatch: 'streaming',
    emitted_deltas: read.assembler.sent,
    usage,
  });
}

function finished(read: AttemptRead, part: Finish): AttemptResult<Streamed> {
  const { assembler, attempt } = read;
  const usage = countedUsage(part.usage, readUsage(read, assembler.outputTokens()));
  if (assembler.unreadable) throw unreadable(read, usage);
  const value: Streamed = assembler.finish({ ...part, usage });
  if (read.budgetBound && part.finish_reason === 'length') value.cancelled = 'budget';
  return { value, usage, costUsd: costOf(usage, attempt.entry), ttftMs: read.ttftMs };
}

/**
 * An attempt that wrote on past max_tokens: counted at least at its worst case and everything read, the
 * crossing delta included (model.over_budget).
 */
function cutAtCap(read: AttemptRead, crossing: MessageDelta, tail: MessageDelta[]): AttemptResult<Streamed> {
  const { assembler, attempt } = read;
  const usage = countedUsage(undefined, readUsage(read, assembler.outputTokens(crossing, ...tail)));
  if (assembler.unreadable) throw unreadable(read, usage);
  const value: Streamed = { ...assembler.partial('length', read.inputTokens), usage };
  if (read.budgetBound) value.cancelled = 'budget';
  return { value, usage, costUsd: costOf(usage, attempt.entry), ttftMs: read.ttftMs, cutAtCap: true };
}

function endedWithoutFinish(attempt: PlannedAttempt) {
  return modelFailure({
    kind: 'invalid_response',
    message: `The ${attempt.provider} stream ended without a finish; the answer is incomplete.`,
    provider: attempt.provider,
    model: attempt.model,
    dispatch: 'streaming',
    emitted_deltas: true,
  });
}

/**
 * One streamed attempt: the adapter's stream through the assembler, stopped early by the budget. Every
 * way it ends is counted at least at what the provider billed (countedUsage): its reported usage, or
 * Valve's own estimate where it reported none, or the attempt's worst case where Valve stopped reading.
 */
export async function streamAttempt(
  prepared: PreparedReason,
  plan: Plan,
  deps: ReasonDeps,
  signal: AbortSignal,
  modelRequest: ModelRequest,
  input: AttemptInput,
  assembler: StreamAssembler,
): Promise<AttemptResult<Streamed>> {
  const adapter = adapterFor(input.attempt);
  const read = attemptRead(prepared, plan, input, assembler);
  const upstream = new AbortController();
  const began = deps.now();
  // A stall before content fails over in time; after it, it ends the stream with a timeout error.
  const parts = adapter
    .stream(
      attemptRequest(modelRequest, input),
      callOptionsOf(input, deps, AbortSignal.any([input.signal, signal, upstream.signal])),
    )
    [Symbol.asyncIterator]();
  try {
    for (let next = await parts.next(); !next.done; next = await parts.next()) {
      const part = next.value;
      if (part.type === 'finish') return finished(read, part);
      read.ttftMs ??= deps.now() - began;
      if (assembler.outputTokens(part.delta) <= read.maxTokens) {
        assembler.add(part.delta);
        continue;
      }
      // The delta crosses the cap as Valve counts it. A provider that keeps to max_tokens finishes here
      // (its whole answer in one delta, as Gemini sends it, or a count under Valve's conservative
      // estimate), and its finish carries what it billed: read on for it, and send the delta.
      const tail = await readTail(parts);
      if (tail.finish) {
        for (const delta of [part.delta, ...tail.deltas]) assembler.add(delta);
        return finished(read, tail.finish);
      }
      // It wrote on past max_tokens: Valve stops reading and sends nothing more.
      upstream.abort();
      return cutAtCap(read, part.delta, tail.deltas);
    }
  } finally {
    await parts.return?.();
  }
  throw endedWithoutFinish(input.attempt);
}
