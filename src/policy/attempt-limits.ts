import type { ReasoningSetting } from '../model/model-request';
import type { CatalogModel } from './catalog';
import type { ExclusionReason, Left, Needs, Speed } from './plan-types';
import { resolveReasoning } from './resolve-reasoning';

/** Below this many output tokens an answer is not worth starting; the model is excluded as `cost`. */
export const minUsefulOutputTokens = 16;
/** The output a request is expected to produce when the caller gives no `maxOutputTokens`. */
export const defaultWantedOutputTokens = 256;

export type AttemptLimits =
  | {
      ok: true;
      maxTokens: number;
      worstCaseUsd: number;
      estCostUsd: number;
      estLatencyMs: number;
      /** What the attempt tells the model about thinking, bounded by `maxTokens`; absent for nothing. */
      reasoning?: ReasoningSetting;
    }
  | { ok: false; reason: Extract<ExclusionReason, 'cost' | 'latency'>; detail: string };

/** The input tokens whose size is known from the request: all but media priced at a provider's limit. */
export function knownInputTokens(needs: Needs): number {
  return needs.inputTokens - (needs.unboundedTokens ?? 0);
}

function usd(value: number): string {
  return `$${value.toPrecision(3)}`;
}

/**
 * The limits of one attempt inside what is left of the budget. `max_tokens` is the least of the
 * caller's `maxOutputTokens`, the model's maximum, the room left in its context window, and what the
 * remaining money can pay for at the model's prices, so the attempt's worst case never exceeds the
 * money left. A model that cannot produce a useful answer within the money left is excluded (`cost`);
 * one whose p90 time to first token plus the wanted output cannot fit the time left, `latency`. Pure.
 */
export function attemptLimits(entry: CatalogModel, needs: Needs, left: Left, speed: Speed): AttemptLimits {
  // A provider refuses input past its window rather than bill it, so no attempt is billed more.
  const price = entry.priceUsdPerMTok;
  const inputPrice = needs.cacheWrites ? Math.max(price.input, price.cacheWrite ?? 0) : price.input;
  const inputUsd = (Math.min(needs.inputTokens, entry.contextTokens) * inputPrice) / 1e6;
  const outputUsdPerToken = entry.priceUsdPerMTok.output / 1e6;
  const cap = Math.max(
    0,
    Math.min(
      needs.maxOutputTokens ?? Number.POSITIVE_INFINITY,
      entry.maxOutputTokens,
      entry.contextTokens - knownInputTokens(needs),
    ),
  );
  let maxTokens = cap;
  if (Number.isFinite(left.costUsd) && outputUsdPerToken > 0) {
    maxTokens = Math.min(cap, Math.floor((left.costUsd - inputUsd) / outputUsdPerToken));
    // Floating point must never let the worst case creep past the money left.
    while (maxTokens > 0 && inputUsd + maxTokens * outputUsdPerToken > left.costUsd) maxTokens--;
  }
  const floor = Math.min(minUsefulOutputTokens, cap);
  if (inputUsd > left.costUsd || maxTokens < floor || maxTokens <= 0) {
    return {
      ok: false,
      reason: 'cost',
      detail: `input alone costs about ${usd(inputUsd)} and ${usd(left.costUsd)} is left: room for ${Math.max(0, maxTokens)} output tokens, under the useful floor of ${floor}`,
    };
  }
  const reasoning = resolveReasoning(entry, needs.reasoning, maxTokens);
  if (!reasoning.ok) return { ok: false, reason: 'cost', detail: reasoning.detail };
  // Thinking the caller asked for is output too: expected on top of the answer, in money and in time.
  const thinking = needs.reasoning === undefined ? 0 : reasoning.thinkingTokens;
  const wanted = Math.min((needs.maxOutputTokens ?? defaultWantedOutputTokens) + thinking, maxTokens);
  const generationMs = (wanted / speed.outputTokensPerSec) * 1000;
  if (speed.ttftMsP90 + generationMs > left.timeMs) {
    return {
      ok: false,
      reason: 'latency',
      detail: `p90 first token ${Math.round(speed.ttftMsP90)} ms + ${wanted} tokens at ${Math.round(speed.outputTokensPerSec)}/s = ${Math.round(speed.ttftMsP90 + generationMs)} ms, ${Math.max(0, Math.round(left.timeMs))} ms left`,
    };
  }
  return {
    ok: true,
    maxTokens,
    worstCaseUsd: inputUsd + maxTokens * outputUsdPerToken,
    estCostUsd: inputUsd + wanted * outputUsdPerToken,
    estLatencyMs: speed.ttftMsP50 + generationMs,
    ...(reasoning.setting && { reasoning: reasoning.setting }),
  };
}
