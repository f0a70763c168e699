import type { ModelRef } from '../contracts/reason-request';
import type { PlannedAttempt, Prefer } from './plan-types';

const compare: Record<Prefer, (a: PlannedAttempt, b: PlannedAttempt) => number> = {
  quality: (a, b) => b.entry.quality - a.entry.quality || a.estCostUsd - b.estCostUsd,
  cost: (a, b) => a.estCostUsd - b.estCostUsd || b.entry.quality - a.entry.quality,
  speed: (a, b) => a.estLatencyMs - b.estLatencyMs || b.entry.quality - a.entry.quality,
};

/**
 * Orders eligible attempts by `prefer` (ties broken by the next criterion, then catalog order, since
 * the sort is stable), puts a pinned model first, and keeps only the first when fallback is off. Pure.
 */
export function rankAttempts(
  attempts: PlannedAttempt[],
  prefer: Prefer,
  pinned: ModelRef | undefined,
  allowFallback: boolean,
): PlannedAttempt[] {
  const ranked = [...attempts].sort(compare[prefer]);
  if (pinned) {
    const index = ranked.findIndex((a) => a.provider === pinned.provider && a.model === pinned.model);
    if (index > 0) ranked.unshift(...ranked.splice(index, 1));
  }
  return allowFallback ? ranked : ranked.slice(0, 1);
}
