import { hkdf } from '@noble/hashes/hkdf.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import type { Bytes } from '../encoding/bytes';

// The two primitives under the commitments, from @noble/hashes; the tests run the RFC 5869, RFC 4231
// and Wycheproof vectors through these exact functions (and the issuer's keyed-once MACs in
// ../encoding/hmac-sha256 against them). Not WebCrypto: a receipt needs about thirty MACs per request, and
// WebCrypto's promises (import, sign) cost several times more (bench/micro/issue-receipt.bench.ts).
// The same code runs in workerd, the CLI and the browser page. The async signatures stay, so a
// caller never depends on which one is underneath.

export async function hkdfSha256(ikm: Bytes, salt: Bytes, info: Bytes, length: number): Promise<Bytes> {
  return hkdf(sha256, ikm, salt, info, length) as Bytes;
}

export async function hmacSha256(key: Bytes, message: Bytes): Promise<Bytes> {
  return hmac(sha256, key, message) as Bytes;
}
