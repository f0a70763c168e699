import type { ModelWarning } from '../model/model-response';

/** What rendering changed, per source (`c3`, `turn 2`, `task`), before it becomes warnings. */
export interface Tally {
  removed: Array<[string, number]>;
  neutralized: Array<[string, number]>;
  replaced: Array<[string, number]>;
  /** Truncated items and the limit they were cut to. */
  truncated: Array<[string, number]>;
}

function total(entries: Array<[string, number]>): number {
  return entries.reduce((sum, [, n]) => sum + n, 0);
}

function list(entries: Array<[string, number]>): string {
  return entries.map(([source, n]) => `${source}: ${n}`).join(', ');
}

/** One warning per kind of change, with the total and where it happened; none when nothing changed. */
export function tallyWarnings(tally: Tally): ModelWarning[] {
  const warnings: ModelWarning[] = [];
  if (tally.removed.length > 0) {
    warnings.push({
      code: 'prompt.characters_removed',
      message: `Removed ${total(tally.removed)} invisible, bidi-control or tag characters before rendering (${list(tally.removed)}).`,
    });
  }
  if (tally.replaced.length > 0) {
    warnings.push({
      code: 'prompt.characters_replaced',
      message: `Replaced ${total(tally.replaced)} lone surrogates with U+FFFD (${list(tally.replaced)}).`,
    });
  }
  if (tally.neutralized.length > 0) {
    warnings.push({
      code: 'prompt.tokens_neutralized',
      message: `Neutralized ${total(tally.neutralized)} chat-template tokens (${list(tally.neutralized)}).`,
    });
  }
  if (tally.truncated.length > 0) {
    warnings.push({
      code: 'prompt.truncated',
      message: `Truncated context items and tool results to their size limit (${list(tally.truncated)} characters).`,
    });
  }
  return warnings;
}
