import type { MediaPartType } from '../model/media-kinds';

// How a media part's size was reached before the call, as `decision.media` reports it. A part is
// priced at the most a provider could bill for it, so each measurer returns an upper bound and says
// what kind of bound it is.

/**
 * - `read`: the file states its size and nothing in its bytes could make a reader see more;
 * - `bounded`: the file's own claims could not be trusted (they disagree, or a reader may act on
 *   another one), so the size is the largest claim or a bound computed from the bytes themselves;
 * - `limit`: no bound could be read (a URL, a file id, an unreadable or too costly file), so the part
 *   is priced at the most any provider accepts for a part of its kind.
 */
export type PricingBasis = 'read' | 'bounded' | 'limit';

export interface Priced {
  basis: PricingBasis;
  /** One short line for the trace: what was counted, e.g. "1000 pages: the largest /Count". */
  why: string;
}

/** One media part's price before the call: the most a provider could bill for it, and how it was reached. */
export interface MediaPricing extends Priced {
  /** Where the part is in the request, e.g. `context[0].media[1]`. */
  path: string;
  type: MediaPartType;
  /** Input tokens counted for it in every attempt's plan. */
  tokens: number;
}
