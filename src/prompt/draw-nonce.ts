import { ApiError } from '../errors';

const maxDraws = 8;

/**
 * A fresh secret of `bytes` random bytes as lowercase hex that occurs nowhere in `haystack` (compared in
 * lowercase), drawing again when it does. With 128 bits a collision only happens when an input was built
 * to contain it; eight draws in a row failing means the random source is broken.
 */
export function drawNonce(randomHex: (bytes: number) => string, haystack: string, bytes = 16): string {
  const lower = haystack.toLowerCase();
  for (let draw = 0; draw < maxDraws; draw++) {
    const nonce = randomHex(bytes);
    if (!/^[0-9a-f]+$/.test(nonce) || nonce.length !== bytes * 2) break;
    if (!lower.includes(nonce)) return nonce;
  }
  throw new ApiError('internal.error', 'Could not draw a prompt nonce that differs from every input.');
}

/** Every input of a request as one string, for `drawNonce`: any text that could carry a nonce is in it. */
export function promptInputs(request: unknown): string {
  return JSON.stringify(request);
}
