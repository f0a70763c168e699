import type { ReasoningEffort } from '../contracts/reason-request';
import { reasoningEfforts } from '../contracts/reason-request';
import type { ReasoningSetting } from '../model/model-request';
import type { CatalogModel } from './catalog';

// What one model is told about thinking, from the caller's `reasoning` and the model's catalog entry
// (docs/policy.md#reasoning). Thinking is output: it is billed at the output price and counted against
// `max_tokens`, so every thinking budget Valve sends fits inside the attempt's `max_tokens`, which
// attempt-limits derived from the money and time left. Pure.

/**
 * The thinking budget of each effort level, for models that take a token budget: the one table.
 * `minimal` is Anthropic's least budget; `high` is Gemini 2.5 Flash's most. Clamped to each model's
 * own range and to what the attempt's `max_tokens` leaves after room for the answer.
 */
export const effortBudgetTokens: Record<ReasoningEffort, number> = {
  minimal: 1024,
  low: 4096,
  medium: 8192,
  high: 24_576,
};

/** The part of `max_tokens` kept for the answer when Valve sets a thinking budget: a quarter, at least 16. */
export function answerRoomTokens(maxTokens: number): number {
  return Math.max(16, Math.ceil(maxTokens / 4));
}

export type ResolvedReasoning =
  | {
      ok: true;
      /** What the adapter is told; absent when the model is told nothing. */
      setting?: ReasoningSetting;
      /** The thinking the attempt may do, for estimates (0 when it is off or unknown). */
      thinkingTokens: number;
    }
  | { ok: false; detail: string };

/** Whether the caller asks for thinking (`on`), for none (`off`), or says nothing. */
function intentOf(ask: ReasoningSetting | undefined): 'on' | 'off' | 'silent' {
  if (ask === undefined) return 'silent';
  if (ask.enabled === false || ask.budget_tokens === 0) return 'off';
  if (ask.enabled === true || ask.effort !== undefined || ask.budget_tokens !== undefined) return 'on';
  return 'silent';
}

/** The effort of a budget: the highest level whose budget it covers, else the lowest level. */
function effortOfBudget(budget: number): ReasoningEffort {
  let effort: ReasoningEffort = 'minimal';
  for (const level of reasoningEfforts) if (effortBudgetTokens[level] <= budget) effort = level;
  return effort;
}

/**
 * Why the model cannot do what the request asks of its thinking, or undefined when it can. Independent
 * of the budget: eligibility's `capability` check.
 */
export function reasoningProblem(entry: CatalogModel, ask: ReasoningSetting | undefined): string | undefined {
  const intent = intentOf(ask);
  const spec = entry.reasoning;
  if (!entry.capabilities.reasoning) {
    return intent === 'on' ? 'does not reason, and the request asks for reasoning' : undefined;
  }
  if (intent === 'off') {
    const defaultOn = spec?.defaultOn ?? true;
    return defaultOn && !(spec?.canDisable ?? false)
      ? 'always reasons: its thinking cannot be turned off, and the request asks for none'
      : undefined;
  }
  const control = spec?.control ?? 'none';
  const controlled = ask?.effort !== undefined || ask?.budget_tokens !== undefined;
  if (intent === 'on' && control === 'none' && controlled) {
    return 'reasons but takes no effort or budget control, and the request sets one';
  }
  if (intent === 'on' && control === 'none' && !(spec?.defaultOn ?? true)) {
    return 'cannot be told to reason';
  }
  if ((control === 'effort' || control === 'level') && ask?.effort !== undefined && spec?.levels) {
    if (!spec.levels.includes(ask.effort)) {
      return `takes reasoning effort ${spec.levels.join(', ')}, not ${ask.effort}`;
    }
  }
  return undefined;
}

/**
 * The reasoning setting of one attempt whose `max_tokens` is `maxTokens`. A budget model gets a
 * budget no larger than `maxTokens` less room for the answer; one the request asks to think that
 * cannot fit its least budget there is excluded (`cost`). A budget model that thinks by default
 * (Gemini 2.5) gets an explicit budget bounded the same way even when the caller says nothing, so its
 * dynamic thinking cannot eat the answer's room. Assumes `reasoningProblem` found nothing.
 */
export function resolveReasoning(
  entry: CatalogModel,
  ask: ReasoningSetting | undefined,
  maxTokens: number,
): ResolvedReasoning {
  const intent = intentOf(ask);
  const spec = entry.reasoning;
  const summary = ask?.summary !== undefined ? { summary: ask.summary } : {};
  if (!entry.capabilities.reasoning || spec === undefined || spec.control === 'none') {
    return { ok: true, thinkingTokens: 0 };
  }
  if (intent === 'off') {
    return spec.defaultOn
      ? { ok: true, setting: { enabled: false }, thinkingTokens: 0 }
      : { ok: true, thinkingTokens: 0 };
  }
  if (intent === 'silent' && !spec.defaultOn) return { ok: true, thinkingTokens: 0 };
  if (spec.control === 'effort' || spec.control === 'level') {
    const effort =
      ask?.effort ??
      (ask?.budget_tokens !== undefined
        ? nearestLevel(effortOfBudget(ask.budget_tokens), spec.levels)
        : intent === 'on' && !spec.defaultOn
          ? nearestLevel('medium', spec.levels)
          : undefined);
    if (effort === undefined)
      return { ok: true, thinkingTokens: 0, ...(ask?.summary && { setting: summary }) };
    const thinkingTokens = Math.min(effortBudgetTokens[effort], maxTokens);
    return { ok: true, setting: { effort, ...summary }, thinkingTokens };
  }
  const min = spec.minBudgetTokens ?? 0;
  const wanted =
    ask?.budget_tokens ??
    (ask?.effort !== undefined
      ? effortBudgetTokens[ask.effort]
      : intent === 'on'
        ? effortBudgetTokens.medium
        : (spec.maxBudgetTokens ?? maxTokens));
  const room = Math.max(0, maxTokens - answerRoomTokens(maxTokens));
  const budget = Math.min(wanted, spec.maxBudgetTokens ?? Number.POSITIVE_INFINITY, room);
  if (budget >= Math.max(min, 1)) {
    return {
      ok: true,
      setting: { budget_tokens: Math.max(budget, min), ...summary },
      thinkingTokens: budget,
    };
  }
  if (intent === 'silent') {
    // Thinking by default with no room for it: off where the model allows, else its least budget.
    return spec.canDisable
      ? { ok: true, setting: { enabled: false }, thinkingTokens: 0 }
      : { ok: true, setting: { budget_tokens: min }, thinkingTokens: min };
  }
  return {
    ok: false,
    detail: `thinking needs at least ${Math.max(min, 1)} tokens and the answer ${answerRoomTokens(maxTokens)}, but the money, time or maxOutputTokens left allow ${maxTokens} output tokens`,
  };
}

/** The level itself when the model takes it, else the closest it takes (the lower one on a tie). */
function nearestLevel(
  effort: ReasoningEffort,
  levels: readonly ReasoningEffort[] | undefined,
): ReasoningEffort {
  if (levels === undefined || levels.includes(effort)) return effort;
  const at = reasoningEfforts.indexOf(effort);
  let best = levels[0] ?? effort;
  for (const level of levels) {
    const distance = Math.abs(reasoningEfforts.indexOf(level) - at);
    const bestDistance = Math.abs(reasoningEfforts.indexOf(best) - at);
    if (
      distance < bestDistance ||
      (distance === bestDistance && reasoningEfforts.indexOf(level) < reasoningEfforts.indexOf(best))
    )
      best = level;
  }
  return best;
}
