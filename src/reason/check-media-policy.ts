import type { ReasonRequest } from '../contracts/reason-request';
import { ApiError } from '../errors';

/**
 * Refuses media the request's own `mediaPolicy` does not allow (docs/trust.md "Media"): untrusted
 * media when `allowUntrusted` is false — an untrusted item's, and a user turn's when the turns are
 * untrusted (`untrustedTurns`: the OpenAI door) — and any `url` source unless `allowUrls` is true,
 * since a URL makes the provider fetch from a host the caller named (Valve never fetches one itself).
 */
export function checkMediaPolicy(request: ReasonRequest, untrustedTurns = false): void {
  const policy = request.mediaPolicy ?? {};
  const refuse = (path: string, message: string) => {
    throw new ApiError('request.media_refused', message, { details: { path } });
  };
  for (const [i, item] of (request.context ?? []).entries()) {
    for (const [k, part] of (item.media ?? []).entries()) {
      const path = `/context/${i}/media/${k}`;
      if (item.trust !== 'trusted' && policy.allowUntrusted === false)
        refuse(path, `${path}: untrusted media, and mediaPolicy.allowUntrusted is false.`);
      if (part.source.kind === 'url' && policy.allowUrls !== true)
        refuse(path, `${path}: a URL source, and mediaPolicy.allowUrls is not true; send the bytes instead.`);
    }
  }
  for (const [i, turn] of (request.conversation ?? []).entries()) {
    if (turn.role !== 'user') continue;
    for (const [k, part] of (turn.media ?? []).entries()) {
      const path = `/conversation/${i}/media/${k}`;
      if (untrustedTurns && policy.allowUntrusted === false)
        refuse(path, `${path}: untrusted media, and mediaPolicy.allowUntrusted is false.`);
      if (part.source.kind === 'url' && policy.allowUrls !== true)
        refuse(path, `${path}: a URL source, and mediaPolicy.allowUrls is not true; send the bytes instead.`);
    }
  }
}
