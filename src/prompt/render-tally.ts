import { type NormalizeCounts, normalizeText } from './normalize-text';
import type { Tally } from './tally-warnings';

/** What one rendering changed so far, and the two ways a source's text is recorded into it. */
export interface RenderTally {
  tally: Tally;
  /** Records what normalizing one source (`c3`, `turn 2`, `task`) changed. */
  count: (source: string, counts: NormalizeCounts) => void;
  /** Normalizes one source's text, stripping the datamark when given, and records what changed. */
  normalize: (source: string, input: string) => string;
}

export function renderTally(strip: string | undefined): RenderTally {
  const tally: Tally = { removed: [], neutralized: [], replaced: [], truncated: [] };
  const count = (source: string, counts: NormalizeCounts) => {
    if (counts.removed > 0) tally.removed.push([source, counts.removed]);
    if (counts.neutralized > 0) tally.neutralized.push([source, counts.neutralized]);
    if (counts.replaced > 0) tally.replaced.push([source, counts.replaced]);
  };
  const normalize = (source: string, input: string) => {
    const normalized = normalizeText(input, strip);
    count(source, normalized);
    return normalized.text;
  };
  return { tally, count, normalize };
}
