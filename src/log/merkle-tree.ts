import type { Bytes } from '../encoding/bytes';
import { EMPTY_ROOT, nodeHash, splitPoint } from './merkle';

// An append-only RFC 6962 tree that stores every complete subtree hash ("node"): level 0 holds the
// leaf hashes, and node (level, index) is the root of leaves [index·2^level, (index+1)·2^level).
// A node never changes once written, so the store can be a plain SQLite table keyed (level, index)
// in the log's Durable Object, or memory in tests and in the CLI.
//
// Costs, n leaves: an append writes the leaf and the nodes it completes (one hash and about two rows
// amortized, log n at worst); storage is about 2n hashes. Every range an RFC 6962 proof names is
// either a complete node (one read) or a right-edge range [start, size) of the proof's tree size,
// made of at most log n nodes; those are memoized, so after a batch of appends the root and every
// proof at the new size cost O(log n) reads and no hashing beyond the right edge. This is what lets
// one Durable Object append thousands of entries a second at sizes of 10^5 and beyond, where
// recomputing the tree per append would not.

export interface MerkleNodeStore {
  /** The hash of node (level, index), or undefined if it was never written. */
  get(level: number, index: number): Uint8Array | undefined;
  set(level: number, index: number, hash: Uint8Array): void;
}

export class MemoryNodeStore implements MerkleNodeStore {
  private readonly levels: Uint8Array[][] = [];

  get(level: number, index: number): Uint8Array | undefined {
    return this.levels[level]?.[index];
  }

  set(level: number, index: number, hash: Uint8Array): void {
    let nodes = this.levels[level];
    if (nodes === undefined) {
      nodes = [];
      this.levels[level] = nodes;
    }
    nodes[index] = hash;
  }
}

const MEMO_LIMIT = 4096;

export class MerkleTree {
  private treeSize: number;
  /** Right-edge range hashes, by the range's end, then its start: numbers, no key string per lookup. */
  private memo = new Map<number, Map<number, Uint8Array>>();
  private memoized = 0;

  /** A tree over `store`, which already holds every node of the first `size` leaves. */
  constructor(
    private readonly store: MerkleNodeStore,
    size = 0,
  ) {
    this.treeSize = size;
  }

  get size(): number {
    return this.treeSize;
  }

  /** Appends a leaf hash and the nodes it completes; returns the leaf's index. */
  append(leaf: Uint8Array): number {
    const index = this.treeSize;
    this.store.set(0, index, leaf);
    let hash = leaf;
    let level = 0;
    let i = index;
    while (i % 2 === 1) {
      hash = nodeHash(this.node(level, i - 1), hash);
      level++;
      i = (i - 1) / 2;
      this.store.set(level, i, hash);
    }
    this.treeSize = index + 1;
    return index;
  }

  /** The root hash of the tree's first `size` leaves. */
  root(size = this.treeSize): Uint8Array {
    this.checkSize(size);
    return size === 0 ? EMPTY_ROOT : this.rangeHash(0, size);
  }

  /** RFC 9162 section 2.1.3.1: the audit path of leaf `index` in the tree of `size` leaves. */
  inclusionProof(index: number, size = this.treeSize): Uint8Array[] {
    this.checkSize(size);
    if (!Number.isSafeInteger(index) || index < 0 || index >= size) {
      throw new RangeError('leaf index is outside the tree');
    }
    const path: Uint8Array[] = [];
    let start = 0;
    let end = size;
    while (end - start > 1) {
      const k = splitPoint(end - start);
      if (index - start < k) {
        path.push(this.rangeHash(start + k, end));
        end = start + k;
      } else {
        path.push(this.rangeHash(start, start + k));
        start += k;
      }
    }
    return path.reverse();
  }

  /** RFC 9162 section 2.1.4.1: proves the tree of size2 leaves extends the one of size1 (>= 1). */
  consistencyProof(size1: number, size2 = this.treeSize): Uint8Array[] {
    this.checkSize(size2);
    if (!Number.isSafeInteger(size1) || size1 < 1 || size1 > size2) {
      throw new RangeError('consistency proofs need 1 <= size1 <= size2');
    }
    const proof: Uint8Array[] = [];
    let start = 0;
    let end = size2;
    let m = size1;
    let wholeLeft = true;
    while (m !== end - start) {
      const k = splitPoint(end - start);
      if (m <= k) {
        proof.push(this.rangeHash(start + k, end));
        end = start + k;
      } else {
        proof.push(this.rangeHash(start, start + k));
        start += k;
        m -= k;
        wholeLeft = false;
      }
    }
    if (!wholeLeft) proof.push(this.rangeHash(start, end));
    return proof.reverse();
  }

  private checkSize(size: number): void {
    if (!Number.isSafeInteger(size) || size < 0 || size > this.treeSize) {
      throw new RangeError(`tree size must be an integer from 0 to ${this.treeSize}`);
    }
  }

  /** The complete subtree hashes (level, start) … (level, start + count − 1), in order: a tile's hashes. */
  nodes(level: number, start: number, count: number): Uint8Array[] {
    if ((start + count) * 2 ** level > this.treeSize)
      throw new RangeError('those nodes are not complete yet');
    return Array.from({ length: count }, (_, i) => this.node(level, start + i));
  }

  private node(level: number, index: number): Uint8Array {
    const hash = this.store.get(level, index);
    if (hash === undefined) throw new Error(`merkle store lacks node ${level}/${index}`);
    return hash;
  }

  /** MTH(D[start:end]) for a range an RFC 6962 proof can name: start is aligned to its left split. */
  private rangeHash(start: number, end: number): Uint8Array {
    const width = end - start;
    const k = splitPoint(width + 1);
    if (k === width && start % width === 0) return this.node(Math.log2(width), start / width);
    const memoized = this.memo.get(end)?.get(start);
    if (memoized !== undefined) return memoized;
    const split = splitPoint(width);
    const hash: Bytes = nodeHash(this.rangeHash(start, start + split), this.rangeHash(start + split, end));
    if (this.memoized >= MEMO_LIMIT) {
      this.memo = new Map();
      this.memoized = 0;
    }
    // Looked up again: the recursion above may have added this end's map.
    let ranges = this.memo.get(end);
    if (ranges === undefined) {
      ranges = new Map();
      this.memo.set(end, ranges);
    }
    ranges.set(start, hash);
    this.memoized++;
    return hash;
  }
}
