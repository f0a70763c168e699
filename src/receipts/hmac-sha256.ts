import { type _HMAC, hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';

// HMAC-SHA256 and SHA-256 (RFC 2104, FIPS 180-4) on @noble/hashes, shaped for the receipt's work: a
// few dozen MACs of short messages per request, under keys either reused (the HKDF salt, one PRK per
// receipt) or used once (each field key). A key is keyed once (`hmacKey`: the library's keyed inner
// and outer states); a MAC copies those states into one reused scratch instance (`_cloneInto`)
// instead of allocating a fresh pair, takes its message in parts, and allocates only its tag. The
// same code runs in workerd, the CLI and the browser verifier; the tests run RFC 4231, Wycheproof and
// random keys and messages cut into parts.

type Keyed = _HMAC<ReturnType<typeof sha256.create>>;

/** An HMAC-SHA256 key, keyed once: its inner and outer states after the padded key block. */
export interface HmacKey {
  readonly keyed: Keyed;
}

export function hmacKey(key: Uint8Array): HmacKey {
  return { keyed: hmac.create(sha256, key) };
}

// Synchronous use only: each MAC overwrites the scratch before reading it, and nothing awaits between.
let scratch: Keyed | undefined;

/** HMAC(key, parts[0] || parts[1] || …): 32 bytes. */
export function hmacParts(key: HmacKey, parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const mac = key.keyed._cloneInto(scratch);
  scratch = mac;
  for (const part of parts) mac.update(part);
  const out = new Uint8Array(32);
  mac.digestInto(out);
  return out;
}

/** SHA-256 of the parts, one after another. */
export function sha256Parts(parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const hash = sha256.create();
  for (const part of parts) hash.update(part);
  const out = new Uint8Array(32);
  hash.digestInto(out);
  return out;
}
