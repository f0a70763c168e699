import { type Bytes, concatBytes, timingSafeEqual } from '../encoding/bytes';
import { type CheckResult, fail, pass } from '../encoding/check-result';
import { sha256Parts } from '../encoding/hmac-sha256';
import { utf8 } from '../encoding/utf8';

// RFC 6962 / RFC 9162 Merkle tree hashing and proof verification, with Valve's entry hash:
//   E    = SHA-256("valve-receipt/v1/entry" || 0x00 || payload)   (payload = the JWS payload bytes)
//   leaf = SHA-256(0x00 || E),  node = SHA-256(0x01 || left || right),  empty root = SHA-256("")
// Sizes and indices are plain numbers below 2^53, so the arithmetic avoids 32-bit bitwise operators.

export const HASH_BYTES = 32;
const ENTRY_PREFIX = concatBytes(utf8('valve-receipt/v1/entry'), new Uint8Array([0]));
const LEAF_PREFIX = new Uint8Array([0]);
const NODE_PREFIX = new Uint8Array([1]);

// Hashed in parts, with no concatenation: a log batch hashes a leaf and a few nodes per entry, and
// each fresh buffer of that would be one more backing store for the runtime to allocate and sweep.
export const EMPTY_ROOT: Bytes = sha256Parts([]);

export function entryHash(payload: Uint8Array): Bytes {
  return sha256Parts([ENTRY_PREFIX, payload]);
}

export function leafHash(entry: Uint8Array): Bytes {
  return sha256Parts([LEAF_PREFIX, entry]);
}

export function nodeHash(left: Uint8Array, right: Uint8Array): Bytes {
  return sha256Parts([NODE_PREFIX, left, right]);
}

/** The largest power of two strictly below n (n >= 2): RFC 6962's split point k. */
export function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

export function isPowerOfTwo(n: number): boolean {
  return n >= 1 && splitPoint(n + 1) === n;
}

function isTreeSize(n: number): boolean {
  return Number.isSafeInteger(n) && n >= 0;
}

const half = (n: number) => Math.floor(n / 2);
const odd = (n: number) => n % 2 === 1;

/** RFC 9162 section 2.1.3.2: the proof takes leaf `index` of a tree of `size` leaves to `root`. */
export function verifyInclusion(
  leaf: Uint8Array,
  index: number,
  size: number,
  proof: readonly Uint8Array[],
  root: Uint8Array,
): CheckResult<null> {
  if (!isTreeSize(index) || !isTreeSize(size) || index >= size)
    return fail('leaf index is not inside the tree');
  if (leaf.length !== HASH_BYTES) return fail('the leaf hash is not 32 bytes');
  if (proof.some((p) => p.length !== HASH_BYTES)) return fail('a proof hash is not 32 bytes');
  let fn = index;
  let sn = size - 1;
  let r: Uint8Array = leaf;
  for (const p of proof) {
    if (sn === 0) return fail('inclusion proof is too long');
    if (odd(fn) || fn === sn) {
      r = nodeHash(p, r);
      while (!odd(fn) && fn !== 0) {
        fn = half(fn);
        sn = half(sn);
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = half(fn);
    sn = half(sn);
  }
  if (sn !== 0) return fail('inclusion proof is too short');
  return timingSafeEqual(r, root) ? pass(null) : fail('inclusion proof does not lead to the root');
}

/**
 * What a consistency proof between two roots shows. `consistent`: the tree of size2 extends the one
 * of size1. `forked`: the proof leads to root2, and so (SHA-256 being collision resistant) its hashes
 * are nodes of root2's tree, and they give `firstRoot`, not root1, as that tree's root at size1 —
 * whoever signed both roots signed two histories. `invalid`: the proof leads to neither, or has the
 * wrong shape, which shows only that the proof is bad: anyone can write such a proof.
 */
export type ConsistencyFinding =
  | { kind: 'consistent' }
  | { kind: 'forked'; firstRoot: Uint8Array }
  | { kind: 'invalid'; reason: string };

const invalid = (reason: string): ConsistencyFinding => ({ kind: 'invalid', reason });

/**
 * RFC 9162 section 2.1.4.2, reporting what the proof shows. From size 0 it is invalid; between
 * equal sizes the proof must be empty, and different roots are themselves the fork. When size1 is a
 * power of two the proof starts from root1 itself, so it can show consistency but never a fork.
 */
export function checkConsistencyProof(
  size1: number,
  size2: number,
  root1: Uint8Array,
  root2: Uint8Array,
  proof: readonly Uint8Array[],
): ConsistencyFinding {
  if (!isTreeSize(size1) || !isTreeSize(size2)) return invalid('tree sizes are not integers');
  if (size1 === 0) return invalid('a consistency proof from an empty tree is an error');
  if (size1 > size2) return invalid('the first tree is larger than the second');
  if (size1 === size2) {
    if (proof.length !== 0) return invalid('a proof between equal sizes must be empty');
    return timingSafeEqual(root1, root2) ? { kind: 'consistent' } : { kind: 'forked', firstRoot: root2 };
  }
  if (proof.length === 0) return invalid('consistency proof is empty');
  if (proof.some((p) => p.length !== HASH_BYTES)) return invalid('a proof hash is not 32 bytes');
  const path = isPowerOfTwo(size1) ? [root1, ...proof] : [...proof];
  let fn = size1 - 1;
  let sn = size2 - 1;
  while (odd(fn)) {
    fn = half(fn);
    sn = half(sn);
  }
  let fr = path[0] as Uint8Array;
  let sr = fr;
  for (const c of path.slice(1)) {
    if (sn === 0) return invalid('consistency proof is too long');
    if (odd(fn) || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      while (!odd(fn) && fn !== 0) {
        fn = half(fn);
        sn = half(sn);
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn = half(fn);
    sn = half(sn);
  }
  if (sn !== 0) return invalid('consistency proof is too short');
  const leadsToFirst = timingSafeEqual(fr, root1);
  const leadsToSecond = timingSafeEqual(sr, root2);
  if (leadsToFirst && leadsToSecond) return { kind: 'consistent' };
  if (leadsToSecond) return { kind: 'forked', firstRoot: fr };
  return invalid(
    leadsToFirst
      ? 'consistency proof does not lead to the second root'
      : 'consistency proof does not lead to the first root',
  );
}

/**
 * RFC 9162 section 2.1.4.2: the tree of size2 leaves with root2 extends the one of size1 with root1.
 * From size 0 it is an error; between equal sizes the proof must be empty and the roots equal.
 */
export function verifyConsistency(
  size1: number,
  size2: number,
  root1: Uint8Array,
  root2: Uint8Array,
  proof: readonly Uint8Array[],
): CheckResult<null> {
  const finding = checkConsistencyProof(size1, size2, root1, root2, proof);
  if (finding.kind === 'consistent') return pass(null);
  if (finding.kind === 'invalid') return fail(finding.reason);
  return fail(
    size1 === size2
      ? 'equal sizes with different roots'
      : 'consistency proof does not lead to the first root',
  );
}
