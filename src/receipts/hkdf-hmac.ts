import type { Bytes } from '../encoding/bytes';
import { hmacKey, hmacParts } from './hmac-sha256';

// The two primitives under the commitments; the tests run the RFC 5869, RFC 4231 and Wycheproof
// vectors through these exact functions, and through them the HMAC-SHA256 the issuer uses
// (./hmac-sha256), so the receipt is made and checked by one implementation in workerd, the CLI and
// the browser page. Not WebCrypto: a receipt needs about thirty MACs per request, and WebCrypto's
// promises (import, sign) cost several times more (bench/micro/issue-receipt.bench.ts). The async
// signatures stay, so a caller never depends on which one is underneath.

const HASH_LENGTH = 32;

/** HKDF-SHA256 (RFC 5869): extract, then expand to `length` bytes (at most 255 × 32). */
export async function hkdfSha256(ikm: Bytes, salt: Bytes, info: Bytes, length: number): Promise<Bytes> {
  if (!Number.isSafeInteger(length) || length < 0 || length > 255 * HASH_LENGTH) {
    throw new RangeError('HKDF-SHA256 output length must be 0 to 8160 bytes');
  }
  const prk = hmacKey(hmacParts(hmacKey(salt), [ikm]));
  const okm = new Uint8Array(length);
  let previous = new Uint8Array(0);
  for (let i = 1, at = 0; at < length; i++, at += HASH_LENGTH) {
    previous = hmacParts(prk, [previous, info, new Uint8Array([i])]);
    okm.set(previous.subarray(0, Math.min(HASH_LENGTH, length - at)), at);
  }
  return okm;
}

export async function hmacSha256(key: Bytes, message: Bytes): Promise<Bytes> {
  return hmacParts(hmacKey(key), [message]);
}
