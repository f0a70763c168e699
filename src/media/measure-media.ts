import type { MediaPart } from '../contracts/media-part';
import { base64Bytes } from '../encoding/base64';
import {
  audioTokens,
  imageTokens,
  pdfTokens,
  unknownAudioSeconds,
  unknownPdfPages,
} from '../model/media-tokens';
import { audioSeconds } from './audio-seconds';
import { countPdfPages } from './count-pdf-pages';
import { imageDimensions } from './image-dimensions';
import type { MediaPricing, Priced } from './pricing-basis';
import type { RequestMedia } from './read-media';

/** A part's input tokens at the most any provider charges, and how that figure was reached. */
export interface PartPrice extends Priced {
  tokens: number;
}

function notInline(part: MediaPart): Priced {
  const what = part.source.kind === 'url' ? 'a URL' : 'a file id';
  return { basis: 'limit', why: `${what}: its bytes are not read, so the most a provider accepts` };
}

/** A part's input tokens at the most any provider charges: from its bytes, or assumed for a URL or file id. */
export async function measurePart(part: MediaPart): Promise<PartPrice> {
  const bytes = part.source.kind === 'base64' ? base64Bytes(part.source.data) : undefined;
  if (part.type === 'image') {
    if (bytes === undefined) return { tokens: imageTokens(), ...notInline(part) };
    const { width, height, basis, why } = imageDimensions(bytes, part.mimeType);
    return { tokens: imageTokens(width, height), basis, why };
  }
  if (part.type === 'audio') {
    if (bytes === undefined) return { tokens: audioTokens(), ...notInline(part) };
    const { seconds, basis, why } = audioSeconds(bytes, part.mimeType);
    // A bound past the longest audio a provider takes says nothing a provider would bill: the limit.
    if (seconds > unknownAudioSeconds)
      return {
        tokens: audioTokens(),
        basis: 'limit',
        why: `${why}; over the ${unknownAudioSeconds} s any provider takes`,
      };
    return { tokens: audioTokens(seconds), basis, why };
  }
  if (bytes === undefined) return { tokens: pdfTokens(), ...notInline(part) };
  const { pages, basis, why } = await countPdfPages(bytes);
  // No provider takes more pages than the limit, so none bills more than the limit's tokens.
  if (pages > unknownPdfPages)
    return {
      tokens: pdfTokens(),
      basis: 'limit',
      why: `${why}; over the ${unknownPdfPages} pages any provider takes`,
    };
  return { tokens: pdfTokens(pages), basis, why };
}

/** A part's input tokens at the most any provider charges. */
export async function mediaPartTokens(part: MediaPart): Promise<number> {
  return (await measurePart(part)).tokens;
}

/**
 * The request's media measured from their bytes, as the planner counts them: their tokens together,
 * and each part's price. The one place a part's bytes are read before the call.
 */
export async function measureMedia(media: RequestMedia): Promise<RequestMedia> {
  let tokens = 0;
  const priced: MediaPricing[] = [];
  for (const { path, part } of media.parts) {
    const price = await measurePart(part);
    tokens += price.tokens;
    priced.push({ path, type: part.type, tokens: price.tokens, basis: price.basis, why: price.why });
  }
  return { ...media, tokens, priced };
}
