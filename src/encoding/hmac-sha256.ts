import { compressBlock, SHA256_BLOCK, SHA256_IV, Sha256Stream, wipeSchedule } from './sha256-stream';

// HMAC-SHA256 and SHA-256 (RFC 2104, FIPS 180-4), shaped for a request's work: a few dozen MACs of
// short messages per receipt, under keys either reused (the HKDF salt, one PRK per receipt: `hmacKey`
// computes the chaining states after the inner and outer padded key blocks once) or used once (each
// field key: `hmacOnce`), and the log's leaf and node hashes (`sha256Parts`). Messages come in parts,
// never concatenated, into one reused stream (sha256-stream.ts); every call allocates only its
// 32-byte result. A receipt's messages are a block or two each, and on those @noble/hashes' general
// hasher spent about as much on its bookkeeping (views, clones, padding through BigInt) as on the
// rounds (README, "Where the time goes"). The tests run every function here against the library's
// one-shot calls for every length around the block and random parts, and RFC 4231 and Wycheproof
// through hkdf-hmac.test.ts. The same code runs in workerd, the CLI and the browser verifier.

/** An HMAC-SHA256 key, keyed once: the chaining states after its inner and outer padded key blocks. */
export interface HmacKey {
  readonly inner: Int32Array;
  readonly outer: Int32Array;
}

const IPAD = 0x36;
const OPAD = 0x5c;
// Synchronous use only: each call resets the stream before reading it, and nothing awaits between.
const stream = new Sha256Stream();
const pad = new Uint8Array(SHA256_BLOCK);
const digest = new Uint8Array(32);

/** The chaining state after one block: the key, zero-padded to the block, XORed with `byte`. */
function paddedKeyState(key: Uint8Array, byte: number, into: Int32Array): Int32Array {
  pad.fill(0);
  // The stream is free here: a key's states are made before its MAC's stream is resumed.
  pad.set(key.length > SHA256_BLOCK ? sha256Parts([key]) : key);
  for (let i = 0; i < SHA256_BLOCK; i++) pad[i] = (pad[i] as number) ^ byte;
  into.set(SHA256_IV);
  compressBlock(into, pad, 0);
  pad.fill(0);
  wipeSchedule();
  return into;
}

export function hmacKey(key: Uint8Array): HmacKey {
  return {
    inner: paddedKeyState(key, IPAD, new Int32Array(8)),
    outer: paddedKeyState(key, OPAD, new Int32Array(8)),
  };
}

/** The digest, copied out; the scratch is wiped (a MAC here may be a field key). */
function takeDigest(): Uint8Array<ArrayBuffer> {
  const out = digest.slice();
  digest.fill(0);
  return out;
}

/** H((K ⊕ opad) || H((K ⊕ ipad) || parts…)) from the chaining states after the padded key blocks. */
function macFrom(
  inner: Int32Array,
  outer: Int32Array,
  parts: readonly Uint8Array[],
): Uint8Array<ArrayBuffer> {
  stream.resume(inner, SHA256_BLOCK);
  for (const part of parts) stream.update(part);
  stream.finish(digest);
  stream.resume(outer, SHA256_BLOCK);
  stream.update(digest);
  stream.finish(digest);
  return takeDigest();
}

/** HMAC(key, parts[0] || parts[1] || …): 32 bytes. */
export function hmacParts(key: HmacKey, parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  return macFrom(key.inner, key.outer, parts);
}

// The states of a key used once, wiped after its MAC.
const onceInner = new Int32Array(8);
const onceOuter = new Int32Array(8);

/**
 * HMAC(key, parts…) under a key used once, as RFC 2104 defines it: the same bytes as
 * `hmacParts(hmacKey(key), parts)` without allocating the key's states. Keys longer than a block are
 * hashed first, as the RFC says.
 */
export function hmacOnce(key: Uint8Array, parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const mac = macFrom(paddedKeyState(key, IPAD, onceInner), paddedKeyState(key, OPAD, onceOuter), parts);
  onceInner.fill(0);
  onceOuter.fill(0);
  return mac;
}

/** SHA-256 of the parts, one after another. */
export function sha256Parts(parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  stream.resume(SHA256_IV, 0);
  for (const part of parts) stream.update(part);
  stream.finish(digest);
  return takeDigest();
}
