import type { ContextItem, PromptMode } from '../contracts/reason-request';
import type { MediaBlock } from '../model/message';
import { mediaBlockOf, type Segment } from './media-blocks';
import { serializeContent } from './normalize-content';
import { renderMediaRegion, renderRegion } from './render-region';
import type { RenderTally } from './render-tally';
import { writeRegionBody } from './write-region-body';

/** How regions are written: the request's nonce, marking mode and datamark, and the per-item cut. */
export interface RegionStyle {
  nonce: string;
  mode: PromptMode;
  mark: string;
  maxItemChars?: number;
}

/** A request's context items as regions, sorted by the channel they go in. */
export interface RenderedContext {
  /** Trusted text regions: they go in the system channel. */
  trusted: string[];
  /** Every other region (untrusted ones, and trusted ones holding media): they go in a user turn. */
  regions: Segment[][];
  untrustedItems: number;
  /** The untrusted items that carry media (`c2`). */
  untrustedMedia: string[];
  /** Each media block's context item, by index. */
  origins: Map<MediaBlock, number>;
}

/** The trust an item renders with: anything but an explicit `trusted` is untrusted. */
export function trustOf(item: Pick<ContextItem, 'trust'>): 'trusted' | 'untrusted' {
  return item.trust === 'trusted' ? 'trusted' : 'untrusted';
}

// Trusted text goes in the system channel. Every other region goes in a user turn: untrusted ones,
// and trusted ones that hold media, since no provider takes media in a system part.
export function renderContext(items: ContextItem[], style: RegionStyle, tally: RenderTally): RenderedContext {
  const { nonce, mode, mark, maxItemChars } = style;
  const rendered: RenderedContext = {
    trusted: [],
    regions: [],
    untrustedItems: 0,
    untrustedMedia: [],
    origins: new Map(),
  };
  items.forEach((item, index) => {
    const id = `c${index + 1}`;
    const written = writeRegionBody(serializeContent(item.content), mode, mark, maxItemChars);
    tally.count(id, written);
    if (written.truncated) tally.tally.truncated.push([id, maxItemChars ?? 0]);
    const trust = trustOf(item);
    const attributes = {
      id,
      label: item.label === undefined ? undefined : tally.normalize(id, item.label),
      trust,
      truncated: written.truncated,
    };
    if (trust === 'untrusted') rendered.untrustedItems++;
    if (item.media !== undefined) {
      if (trust === 'untrusted') rendered.untrustedMedia.push(id);
      const blocks = item.media.map(mediaBlockOf);
      for (const block of blocks) rendered.origins.set(block, index);
      rendered.regions.push(renderMediaRegion(nonce, attributes, written.body, blocks));
    } else if (trust === 'trusted') rendered.trusted.push(renderRegion(nonce, attributes, written.body));
    else rendered.regions.push([renderRegion(nonce, attributes, written.body)]);
  });
  return rendered;
}
