import { encodeBase64 } from '../encoding/base64';
import type { SignedCheckpoint } from './log-batches';
import type { MerkleTree } from './merkle-tree';
import { TILE_WIDTH } from './tile-path';
import { formatTlogProof } from './tlog-proof';

// What a reader asks of a shard's tree: C2SP hash tiles and entry bundles (c2sp.org/tlog-tiles),
// RFC 6962 inclusion and consistency proofs, and an entry's tlog-proof. Each answers only within the
// latest signed checkpoint (`size`), and null for anything outside it or malformed.

export interface LogProofHashes {
  hashes: string[];
}

function validTile(level: number, index: number, width: number): boolean {
  return (
    Number.isSafeInteger(level) &&
    level >= 0 &&
    Number.isSafeInteger(index) &&
    index >= 0 &&
    Number.isInteger(width) &&
    width >= 1 &&
    width <= TILE_WIDTH
  );
}

function concatHashes(hashes: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(hashes.length * 32);
  hashes.forEach((hash, i) => {
    out.set(hash, i * 32);
  });
  return out;
}

const inRange = (size: number, signed: number) => Number.isSafeInteger(size) && size >= 1 && size <= signed;

/**
 * The C2SP hash tile (level, index) of `width` hashes, or null unless the tree at `size` holds all of
 * them. Level l's hashes are the tree's complete subtrees of 256^l leaves.
 */
export function hashTile(
  tree: MerkleTree,
  size: number,
  level: number,
  index: number,
  width: number,
): Uint8Array | null {
  if (!validTile(level, index, width) || level > 63) return null;
  const complete = Math.floor(size / TILE_WIDTH ** level);
  if (index * TILE_WIDTH + width > complete) return null;
  return concatHashes(tree.nodes(8 * level, index * TILE_WIDTH, width));
}

/** The C2SP entry bundle `index` of `width` entries (uint16 length, then the 32-byte entry), or null. */
export function entryBundle(sql: SqlStorage, size: number, index: number, width: number): Uint8Array | null {
  if (!validTile(0, index, width) || index * TILE_WIDTH + width > size) return null;
  const start = index * TILE_WIDTH;
  const rows = sql
    .exec<{ entry: ArrayBuffer }>(
      'SELECT entry FROM log_entries WHERE idx >= ? AND idx < ? ORDER BY idx',
      start,
      start + width,
    )
    .toArray();
  if (rows.length !== width) return null;
  const out = new Uint8Array(width * 34);
  rows.forEach((row, i) => {
    const entry = new Uint8Array(row.entry);
    out[i * 34] = entry.length >> 8;
    out[i * 34 + 1] = entry.length & 0xff;
    out.set(entry, i * 34 + 2);
  });
  return out;
}

/** The inclusion proof of leaf `index` in the tree of `size`, within the signed size `signed`. */
export function inclusionHashes(
  tree: MerkleTree,
  signed: number,
  index: number,
  size: number,
): LogProofHashes | null {
  if (!inRange(size, signed) || !Number.isSafeInteger(index) || index < 0 || index >= size) return null;
  return { hashes: tree.inclusionProof(index, size).map(encodeBase64) };
}

/** The consistency proof from size `from` to size `to`, within the signed size `signed`. */
export function consistencyHashes(
  tree: MerkleTree,
  signed: number,
  from: number,
  to: number,
): LogProofHashes | null {
  if (!inRange(to, signed) || !Number.isSafeInteger(from) || from < 1 || from > to) return null;
  return { hashes: tree.consistencyProof(from, to).map(encodeBase64) };
}

/**
 * Entry `index`'s tlog-proof at the cosigned checkpoint (the quorum's latest, read only when `latest`
 * holds the entry) when that holds it, else at `latest`;
 * null when no checkpoint holds it.
 */
export function tlogProofAt(
  tree: MerkleTree,
  index: number,
  latest: SignedCheckpoint | undefined,
  cosignedOf: () => SignedCheckpoint | null,
): string | null {
  if (latest === undefined || !Number.isSafeInteger(index) || index < 0 || index >= latest.size) return null;
  const cosigned = cosignedOf();
  const at = cosigned !== null && index < cosigned.size ? cosigned : latest;
  const path = tree.inclusionProof(index, at.size);
  return formatTlogProof({ index, path, checkpoint: at.note });
}
