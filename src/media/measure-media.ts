import type { MediaPart } from '../contracts/media-part';
import { mediaPartsOf, type ReasonRequest } from '../contracts/reason-request';
import { base64Bytes } from '../encoding/base64';
import { audioTokens, imageTokens, pdfTokens } from '../model/media-tokens';
import { audioSeconds } from './audio-seconds';
import { countPdfPages } from './count-pdf-pages';
import { imageDimensions } from './image-dimensions';

/** A part's input tokens at the most any provider charges: from its bytes, or assumed for a URL or file id. */
export async function mediaPartTokens(part: MediaPart): Promise<number> {
  const bytes = part.source.kind === 'base64' ? base64Bytes(part.source.data) : undefined;
  if (part.type === 'image') {
    if (bytes === undefined) return imageTokens();
    const { width, height } = imageDimensions(bytes, part.mimeType);
    return imageTokens(width, height);
  }
  if (part.type === 'audio') {
    return audioTokens(bytes === undefined ? undefined : audioSeconds(bytes, part.mimeType).seconds);
  }
  return pdfTokens(bytes === undefined ? undefined : await countPdfPages(bytes));
}

/** Every media part of the request (context items' and user turns'), as the planner's token estimate. */
export async function measureMedia(request: ReasonRequest): Promise<number> {
  let tokens = 0;
  for (const part of mediaPartsOf(request)) tokens += await mediaPartTokens(part);
  return tokens;
}
