import { describe, expect, it } from 'vitest';
import { decodeBase64 } from '../../src/encoding/base64';
import type { Bytes } from '../../src/encoding/bytes';
import { consistencyHashes, hashTile, inclusionHashes, tlogProofAt } from '../../src/log/log-proofs';
import { entryHash, leafHash, verifyInclusion } from '../../src/log/merkle';
import { MemoryNodeStore, MerkleTree } from '../../src/log/merkle-tree';
import { parseTlogProof } from '../../src/log/tlog-proof';

// What a reader asks of the tree, answered only within the latest signed size: tiles, proofs, and an
// entry's tlog-proof at the quorum's cosigned checkpoint when that holds it.

function treeOf(size: number): MerkleTree {
  const tree = new MerkleTree(new MemoryNodeStore());
  for (let n = 0; n < size; n++) tree.append(leafHash(entryHash(new Uint8Array([n & 0xff, n >> 8]))));
  return tree;
}

const checkpointOf = (size: number) => ({ size, note: `valve.test/log/p\n${size}\nroot\n\n— sig\n` });

describe('hash tiles', () => {
  const tree = treeOf(600);

  it('serves a level-0 tile of the leaves the signed size holds, and level 1 only for complete subtrees', () => {
    const tile = hashTile(tree, 600, 0, 2, 88);
    expect(tile?.length).toBe(88 * 32);
    expect(tile?.slice(0, 32)).toEqual(tree.nodes(0, 512, 1)[0]);
    expect(hashTile(tree, 600, 0, 2, 89)).toBeNull();
    expect(hashTile(tree, 599, 0, 2, 88)).toBeNull();
    expect(hashTile(tree, 600, 1, 0, 2)?.length).toBe(64);
    expect(hashTile(tree, 600, 1, 0, 3)).toBeNull();
  });

  it('refuses widths outside 1 to 256, negative or fractional coordinates, and levels past 63', () => {
    for (const [level, index, width] of [
      [0, 0, 0],
      [0, 0, 257],
      [-1, 0, 1],
      [0, -1, 1],
      [0, 0.5, 1],
      [64, 0, 1],
    ] as const) {
      expect(hashTile(tree, 600, level, index, width)).toBeNull();
    }
  });
});

describe('inclusion and consistency proofs', () => {
  const tree = treeOf(9);

  it('prove within the signed size and refuse beyond it, even when the tree holds more', () => {
    const proof = inclusionHashes(tree, 8, 5, 8);
    const path = (proof?.hashes ?? []).map((h) => decodeBase64(h) as Bytes);
    expect(verifyInclusion(tree.nodes(0, 5, 1)[0] as Bytes, 5, 8, path, tree.root(8) as Bytes).ok).toBe(true);
    expect(inclusionHashes(tree, 8, 5, 9)).toBeNull();
    expect(inclusionHashes(tree, 8, 8, 8)).toBeNull();
    expect(inclusionHashes(tree, 8, -1, 8)).toBeNull();
    expect(consistencyHashes(tree, 8, 3, 8)?.hashes.length).toBeGreaterThan(0);
    expect(consistencyHashes(tree, 8, 3, 9)).toBeNull();
    expect(consistencyHashes(tree, 8, 0, 8)).toBeNull();
    expect(consistencyHashes(tree, 8, 8, 8)).toEqual({ hashes: [] });
  });
});

describe('an entry’s tlog-proof', () => {
  const tree = treeOf(6);

  it('ends in the cosigned checkpoint when that holds the entry, else in the latest', () => {
    const at = (index: number) => {
      const proof = parseTlogProof(tlogProofAt(tree, index, checkpointOf(6), () => checkpointOf(4)) ?? '');
      if (!proof.ok) throw new Error(proof.reason);
      const size = Number(proof.value.checkpoint.split('\n')[1]);
      const leaf = tree.nodes(0, index, 1)[0] as Bytes;
      expect(verifyInclusion(leaf, index, size, proof.value.path, tree.root(size) as Bytes).ok).toBe(true);
      return size;
    };
    expect(at(3)).toBe(4);
    expect(at(4)).toBe(6);
    const uncosigned = tlogProofAt(tree, 4, checkpointOf(6), () => null);
    expect(uncosigned?.includes('\n6\n')).toBe(true);
  });

  it('is null outside the latest checkpoint, and then never reads the cosigned one', () => {
    let read = 0;
    const cosigned = () => {
      read++;
      return checkpointOf(4);
    };
    expect(tlogProofAt(tree, 6, checkpointOf(6), cosigned)).toBeNull();
    expect(tlogProofAt(tree, 0, undefined, cosigned)).toBeNull();
    expect(tlogProofAt(tree, 1.5, checkpointOf(6), cosigned)).toBeNull();
    expect(read).toBe(0);
  });
});
