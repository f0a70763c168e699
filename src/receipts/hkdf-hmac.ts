import { hkdf } from '@noble/hashes/hkdf.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import type { Bytes } from '../encoding/bytes';

// The two primitives under the commitments; the tests run the RFC 5869, RFC 4231 and Wycheproof
// vectors through these exact functions. @noble/hashes rather than WebCrypto: a receipt needs 24 of
// them per request, and four WebCrypto promises each (import, derive; import, sign) cost about 11×
// more in Node (bench/micro/issue-receipt.bench.ts); the same code runs in workerd and in the CLI.
// The async signatures stay, so a caller never depends on which one is underneath.

export async function hkdfSha256(ikm: Bytes, salt: Bytes, info: Bytes, length: number): Promise<Bytes> {
  return hkdf(sha256, ikm, salt, info, length) as Bytes;
}

export async function hmacSha256(key: Bytes, message: Bytes): Promise<Bytes> {
  return hmac(sha256, key, message) as Bytes;
}
