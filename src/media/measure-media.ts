import { imageSize } from 'image-size';
import type { MediaPart } from '../contracts/media-part';
import { mediaPartsOf, type ReasonRequest } from '../contracts/reason-request';
import { base64Bytes } from '../encoding/base64';
import { audioTokens, imageTokens, pdfTokens, unknownPdfPages } from '../model/media-tokens';
import { audioSeconds, wavSeconds } from './audio-seconds';
import { countPdfPages } from './count-pdf-pages';
import type { Priced } from './pricing-basis';

export interface PartMeasure extends Priced {
  tokens: number;
}

function unreadSource(part: MediaPart): string {
  return part.source.kind === 'url' ? 'a URL: its bytes are not read' : 'a file id: its bytes are not read';
}

function measureImage(bytes: Uint8Array): PartMeasure {
  try {
    const { width, height } = imageSize(bytes);
    return { tokens: imageTokens(width, height), basis: 'read', why: `${width}×${height} from its header` };
  } catch {
    return { tokens: imageTokens(), basis: 'limit', why: 'an image whose size cannot be read' };
  }
}

function measureAudio(bytes: Uint8Array, mimeType: string): PartMeasure {
  const seconds = audioSeconds(bytes, mimeType);
  const wav = mimeType === 'audio/wav' && wavSeconds(bytes) !== undefined;
  return {
    tokens: audioTokens(seconds),
    basis: wav ? 'read' : 'bounded',
    why: wav ? `${seconds} s from its WAV header` : `${seconds} s at the lowest MPEG bit rate`,
  };
}

/** A part's input tokens at the most any provider charges, and how that figure was reached. */
export async function measurePart(part: MediaPart): Promise<PartMeasure> {
  const bytes = part.source.kind === 'base64' ? base64Bytes(part.source.data) : undefined;
  if (part.type === 'image') {
    return bytes === undefined
      ? { tokens: imageTokens(), basis: 'limit', why: unreadSource(part) }
      : measureImage(bytes);
  }
  if (part.type === 'audio') {
    return bytes === undefined
      ? { tokens: audioTokens(), basis: 'limit', why: unreadSource(part) }
      : measureAudio(bytes, part.mimeType);
  }
  if (bytes === undefined) return { tokens: pdfTokens(), basis: 'limit', why: unreadSource(part) };
  const { pages, basis, why } = await countPdfPages(bytes);
  // No provider takes more pages than the limit, so none bills more than the limit's tokens.
  return { tokens: pdfTokens(Math.min(pages, unknownPdfPages)), basis, why };
}

/** A part's input tokens at the most any provider charges: from its bytes, or assumed for a URL or file id. */
export async function mediaPartTokens(part: MediaPart): Promise<number> {
  return (await measurePart(part)).tokens;
}

/** Every media part of the request (context items' and user turns'), as the planner's token estimate. */
export async function measureMedia(request: ReasonRequest): Promise<number> {
  let tokens = 0;
  for (const part of mediaPartsOf(request)) tokens += await mediaPartTokens(part);
  return tokens;
}
