import { mediaPartsOf, type ReasonRequest } from '../contracts/reason-request';
import { ApiError } from '../errors';

/** The characters of the request's media sources (base64 data, URLs): ASCII, so as many bytes. */
export function mediaSourceChars(request: ReasonRequest): number {
  let chars = 0;
  for (const { source } of mediaPartsOf(request)) {
    if (source.kind === 'base64') chars += source.data.length;
    else if (source.kind === 'url') chars += source.url.length;
  }
  return chars;
}

/**
 * A body that carries media may be as large as MAX_MEDIA_BODY_BYTES, but what is not media is held
 * to MAX_BODY_BYTES, as any other body: 413 when the rest is over it.
 */
export function checkTextBytes(request: ReasonRequest, body: { bytes?: number; limit: number }): void {
  if (body.bytes === undefined || body.bytes <= body.limit) return;
  const text = body.bytes - mediaSourceChars(request);
  if (text <= body.limit) return;
  throw new ApiError(
    'request.too_large',
    `The body without its media parts is ${text} bytes, over the limit of ${body.limit} bytes.`,
    { details: { maxBytes: body.limit } },
  );
}
