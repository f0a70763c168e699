import type { ModelWarning, Usage } from '../model/model-response';

/** What one successful attempt was given, and what it was billed. */
export interface BilledAttempt {
  provider: string;
  model: string;
  maxTokens: number;
  worstCaseUsd: number;
  costUsd: number;
  usage: Usage;
  /** Valve stopped reading the stream at `maxTokens` because the provider did not stop there. */
  cutAtCap?: boolean;
}

function usd(value: number): string {
  return `$${value.toPrecision(3)}`;
}

/**
 * The `model.over_budget` warning of an attempt whose provider ignored `max_tokens` (Valve had to stop
 * reading its stream at the cap) or billed more than the attempt's worst case, or undefined when it
 * kept to both. The billed cost is counted as it is, never trimmed to the plan: the warning, the
 * decision trace and the usage record say so instead.
 */
export function overBudgetWarning(billed: BilledAttempt): ModelWarning | undefined {
  // Floating point alone must not raise it: a millionth of a cent is rounding, not over-billing.
  const overCost = billed.costUsd > billed.worstCaseUsd * (1 + 1e-9) + 1e-12;
  const overTokens = billed.usage.output_tokens > billed.maxTokens;
  if (!overCost && !overTokens && !billed.cutAtCap) return undefined;
  const what = billed.cutAtCap
    ? `kept writing past max_tokens ${billed.maxTokens}, so Valve stopped reading its stream there`
    : overTokens
      ? `wrote ${billed.usage.output_tokens} output tokens against max_tokens ${billed.maxTokens}`
      : `billed ${billed.usage.input_tokens} input tokens, more than planned`;
  return {
    code: 'model.over_budget',
    message: `${billed.provider}/${billed.model} ${what}; it was billed ${usd(billed.costUsd)} against a worst case of ${usd(billed.worstCaseUsd)}, counted as billed.`,
  };
}
