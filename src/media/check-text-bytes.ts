import { ApiError } from '../errors';
import type { RequestMedia } from './read-media';

/**
 * A body that carries media may be as large as MAX_MEDIA_BODY_BYTES, but what is not media is held
 * to MAX_BODY_BYTES, as any other body: 413 when the rest is over it.
 */
export function checkTextBytes(media: RequestMedia, body: { bytes?: number; limit: number }): void {
  if (body.bytes === undefined || body.bytes <= body.limit) return;
  const text = body.bytes - media.sourceChars;
  if (text <= body.limit) return;
  throw new ApiError(
    'request.too_large',
    `The body without its media parts is ${text} bytes, over the limit of ${body.limit} bytes.`,
    { details: { maxBytes: body.limit } },
  );
}
