import { type _HMAC, hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';

// HMAC-SHA256 and SHA-256 (RFC 2104, FIPS 180-4) on @noble/hashes, shaped for a request's work: a
// few dozen MACs of short messages per receipt, under keys either reused (the HKDF salt, one PRK per
// receipt: `hmacKey` keys the library's inner and outer states once) or used once (each field key:
// `hmacOnce`), and the log's leaf and node hashes (`sha256Parts`). Messages come in parts, never
// concatenated; states are copied into reused scratch instances (`_cloneInto`) instead of allocated;
// every call allocates only its 32-byte result. The same code runs in workerd, the CLI and the browser
// verifier; the tests run it against the library's own one-shot calls, and RFC 4231 and Wycheproof
// through hkdf-hmac.test.ts.

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
// Every digest is written here, then copied out. The library views its output through a DataView, and
// viewing a fresh small Uint8Array moves its bytes off V8's heap into a separately allocated, swept
// backing store: once per MAC, and three times more per key made, it cost more than the hashing.
const digest = new Uint8Array(32);
const SHA256_BLOCK = 64;
const pad = new Uint8Array(SHA256_BLOCK);
const fresh = sha256.create();
type Sha256 = ReturnType<typeof sha256.create>;
let inner: Sha256 | undefined;
let outer: Sha256 | undefined;

/** The digest, copied out; the scratch is wiped, as the pad is (a MAC here may be a field key). */
function takeDigest(): Uint8Array<ArrayBuffer> {
  const out = digest.slice();
  digest.fill(0);
  return out;
}

/** HMAC(key, parts[0] || parts[1] || …): 32 bytes. */
export function hmacParts(key: HmacKey, parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const mac = key.keyed._cloneInto(scratch);
  scratch = mac;
  for (const part of parts) mac.update(part);
  mac.digestInto(digest);
  return takeDigest();
}

/**
 * HMAC(key, parts…) under a key used once, as RFC 2104 defines it on the library's SHA-256:
 * H((K ⊕ opad) || H((K ⊕ ipad) || message)), K zero-padded to the block. The same bytes as
 * `hmacParts(hmacKey(key), parts)` without making the keyed pair of states (and their buffers) that
 * only pays when a key is reused. Keys longer than a block are hashed first, as the RFC says.
 */
export function hmacOnce(key: Uint8Array, parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  pad.fill(0);
  pad.set(key.length > SHA256_BLOCK ? sha256(key) : key);
  for (let i = 0; i < SHA256_BLOCK; i++) pad[i] = (pad[i] as number) ^ 0x36;
  const ih = fresh._cloneInto(inner);
  inner = ih;
  ih.update(pad);
  for (const part of parts) ih.update(part);
  ih.digestInto(digest);
  for (let i = 0; i < SHA256_BLOCK; i++) pad[i] = (pad[i] as number) ^ (0x36 ^ 0x5c);
  const oh = fresh._cloneInto(outer);
  outer = oh;
  oh.update(pad);
  oh.update(digest);
  oh.digestInto(digest);
  pad.fill(0);
  return takeDigest();
}

/** SHA-256 of the parts, one after another. */
export function sha256Parts(parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const hash = fresh._cloneInto(inner);
  inner = hash;
  for (const part of parts) hash.update(part);
  hash.digestInto(digest);
  return takeDigest();
}
