import type { MediaPolicy } from '../contracts/media-part';
import { ApiError } from '../errors';
import type { RequestMedia } from './read-media';

/**
 * Refuses media the request's own `mediaPolicy` does not allow (docs/trust.md "Media"): untrusted
 * media when `allowUntrusted` is false — an untrusted item's, and a user turn's when the turns are
 * untrusted (`untrustedTurns`: the OpenAI door) — and any `url` source unless `allowUrls` is true,
 * since a URL makes the provider fetch from a host the caller named (Valve never fetches one itself).
 */
export function checkMediaPolicy(
  media: RequestMedia,
  policy: MediaPolicy = {},
  untrustedTurns = false,
): void {
  for (const { part, pointer, trust } of media.parts) {
    const untrusted = trust === undefined ? untrustedTurns : trust !== 'trusted';
    if (untrusted && policy.allowUntrusted === false)
      refuse(pointer, `${pointer}: untrusted media, and mediaPolicy.allowUntrusted is false.`);
    if (part.source.kind === 'url' && policy.allowUrls !== true)
      refuse(
        pointer,
        `${pointer}: a URL source, and mediaPolicy.allowUrls is not true; send the bytes instead.`,
      );
  }
}

function refuse(path: string, message: string): never {
  throw new ApiError('request.media_refused', message, { details: { path } });
}
