import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBase64 } from '../../src/encoding/base64';
import { bytesToHex, hexToBytes } from '../../src/encoding/hex';
import { utf8 } from '../../src/encoding/utf8';
import {
  checkConsistencyProof,
  EMPTY_ROOT,
  entryHash,
  isPowerOfTwo,
  leafHash,
  nodeHash,
  splitPoint,
  verifyConsistency,
  verifyInclusion,
} from '../../src/log/merkle';
import { MemoryNodeStore, MerkleTree } from '../../src/log/merkle-tree';
import { merkleFiles } from '../shared-data';

// The RFC 6962 test tree used by Certificate Transparency and transparency-dev/merkle, with its roots.
const RFC6962_LEAVES = [
  '',
  '00',
  '10',
  '2021',
  '3031',
  '40414243',
  '5051525354555657',
  '606162636465666768696a6b6c6d6e6f',
];
const RFC6962_ROOTS = [
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
];

/** MTH straight from RFC 6962 section 2.1, recursive and slow: the reference for the stored tree. */
function referenceRoot(leaves: Uint8Array[]): Uint8Array {
  if (leaves.length === 0) return EMPTY_ROOT;
  if (leaves.length === 1) return leaves[0] as Uint8Array;
  const k = splitPoint(leaves.length);
  return nodeHash(referenceRoot(leaves.slice(0, k)), referenceRoot(leaves.slice(k)));
}

function leavesOf(n: number): Uint8Array[] {
  return Array.from({ length: n }, (_, i) => leafHash(entryHash(utf8(`entry ${i}`))));
}

function treeOf(leaves: Uint8Array[]): MerkleTree {
  const tree = new MerkleTree(new MemoryNodeStore());
  for (const leaf of leaves) tree.append(leaf);
  return tree;
}

function flipBit(proof: Uint8Array[], element: number, bit: number): Uint8Array[] {
  return proof.map((p, i) => {
    if (i !== element) return p;
    const copy = p.slice();
    copy[bit >> 3] = (copy[bit >> 3] as number) ^ (1 << (bit & 7));
    return copy;
  });
}

const b64 = (text: string) => {
  const bytes = decodeBase64(text);
  if (bytes === null) throw new Error(`vector holds non-canonical base64 ${text}`);
  return bytes;
};

describe('Merkle hashing', () => {
  it('has the SHA-256 of nothing as the empty root', () => {
    expect(bytesToHex(EMPTY_ROOT)).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(bytesToHex(new MerkleTree(new MemoryNodeStore()).root())).toBe(bytesToHex(EMPTY_ROOT));
  });

  it('gives the RFC 6962 test tree roots at every size', () => {
    const tree = new MerkleTree(new MemoryNodeStore());
    RFC6962_LEAVES.forEach((leaf, i) => {
      tree.append(leafHash(hexToBytes(leaf) as Uint8Array));
      expect(bytesToHex(tree.root()), `size ${i + 1}`).toBe(RFC6962_ROOTS[i]);
    });
  });

  it('hashes entries with the receipts.md domain prefix (known answer)', () => {
    const payload = utf8('{"typ":"valve-receipt/v1"}');
    expect(bytesToHex(entryHash(payload))).toBe(
      '576af41c23c32749cf296c4dcdca02de76ce0ad8baf26420fb0430bea2890d13',
    );
    expect(bytesToHex(leafHash(entryHash(payload)))).toBe(
      '704520072aa02261813b54f1cfdcd488816f7a2c7b6111310bc7f85d405e75b2',
    );
  });
});

interface InclusionVector {
  leafIdx: number;
  treeSize: number;
  root: string;
  leafHash: string;
  proof: string[] | null;
  desc: string;
  wantErr: boolean;
}
interface ConsistencyVector {
  size1: number;
  size2: number;
  root1: string;
  root2: string;
  proof: string[] | null;
  desc: string;
  wantErr: boolean;
}

const vectors = (kind: string) =>
  Object.entries(merkleFiles)
    .filter(([path]) => path.startsWith(`${kind}/`))
    .map(([path, text]) => [path, JSON.parse(text)] as const);

describe('transparency-dev/merkle vectors', () => {
  const inclusion = vectors('inclusion') as (readonly [string, InclusionVector])[];
  const consistency = vectors('consistency') as (readonly [string, ConsistencyVector])[];

  it.skipIf(inclusion.length === 0)('decides every inclusion vector as expected', () => {
    for (const [path, v] of inclusion) {
      const proof = (v.proof ?? []).map(b64);
      const result = verifyInclusion(b64(v.leafHash), v.leafIdx, v.treeSize, proof, b64(v.root));
      expect(result.ok, `${path}: ${v.desc}`).toBe(!v.wantErr);
    }
    expect(inclusion.filter(([, v]) => v.wantErr).length).toBeGreaterThan(50);
  });

  it.skipIf(consistency.length === 0)('decides every consistency vector as expected', () => {
    for (const [path, v] of consistency) {
      const proof = (v.proof ?? []).map(b64);
      const result = verifyConsistency(v.size1, v.size2, b64(v.root1), b64(v.root2), proof);
      expect(result.ok, `${path}: ${v.desc}`).toBe(!v.wantErr);
    }
    expect(consistency.filter(([, v]) => !v.wantErr).length).toBeGreaterThan(4);
  });

  it.skipIf(inclusion.length === 0)(
    'generates exactly the happy-path inclusion proofs of the test tree',
    () => {
      const tree = treeOf(RFC6962_LEAVES.map((leaf) => leafHash(hexToBytes(leaf) as Uint8Array)));
      const happy = inclusion.filter(([path, v]) => path.endsWith('happy-path.json') && v.treeSize <= 8);
      expect(happy.length).toBeGreaterThan(0);
      for (const [path, v] of happy) {
        expect(tree.inclusionProof(v.leafIdx, v.treeSize).map(bytesToHex), path).toEqual(
          (v.proof ?? []).map((p) => bytesToHex(b64(p))),
        );
      }
    },
  );

  it.skipIf(consistency.length === 0)(
    'generates exactly the happy-path consistency proofs of the test tree',
    () => {
      const tree = treeOf(RFC6962_LEAVES.map((leaf) => leafHash(hexToBytes(leaf) as Uint8Array)));
      const happy = consistency.filter(([path, v]) => path.endsWith('happy-path.json') && v.size2 <= 8);
      expect(happy.length).toBeGreaterThan(0);
      for (const [path, v] of happy) {
        expect(tree.consistencyProof(v.size1, v.size2).map(bytesToHex), path).toEqual(
          (v.proof ?? []).map((p) => bytesToHex(b64(p))),
        );
      }
    },
  );
});

describe('MerkleTree', () => {
  it('matches the reference root at every size up to 70', () => {
    const leaves = leavesOf(70);
    const tree = new MerkleTree(new MemoryNodeStore());
    for (let n = 0; n <= 70; n++) {
      expect(bytesToHex(tree.root()), `size ${n}`).toBe(bytesToHex(referenceRoot(leaves.slice(0, n))));
      expect(bytesToHex(tree.root(Math.floor(n / 2)))).toBe(
        bytesToHex(referenceRoot(leaves.slice(0, n >> 1))),
      );
      if (n < 70) expect(tree.append(leaves[n] as Uint8Array)).toBe(n);
    }
  });

  it('resumes over a store that already holds the first leaves', () => {
    const leaves = leavesOf(45);
    const store = new MemoryNodeStore();
    const first = new MerkleTree(store);
    for (const leaf of leaves.slice(0, 29)) first.append(leaf);
    const resumed = new MerkleTree(store, 29);
    for (const leaf of leaves.slice(29)) resumed.append(leaf);
    expect(bytesToHex(resumed.root())).toBe(bytesToHex(referenceRoot(leaves)));
    expect(resumed.inclusionProof(3, 40).map(bytesToHex)).toEqual(
      treeOf(leaves).inclusionProof(3, 40).map(bytesToHex),
    );
  });

  it('proves inclusion of any leaf at any size, and the proofs verify', () => {
    const leaves = leavesOf(150);
    const tree = treeOf(leaves);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 150 }), fc.nat(), (size, at) => {
        const index = at % size;
        const proof = tree.inclusionProof(index, size);
        const root = referenceRoot(leaves.slice(0, size));
        expect(verifyInclusion(leaves[index] as Uint8Array, index, size, proof, root)).toEqual({
          ok: true,
          value: null,
        });
        if (size > 1) {
          expect(verifyInclusion(leaves[(index + 1) % size] as Uint8Array, index, size, proof, root).ok).toBe(
            false,
          );
        }
      }),
    );
  });

  it('rejects an inclusion proof with any single bit flipped', () => {
    const leaves = leavesOf(200);
    const tree = treeOf(leaves);
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 200 }), fc.nat(), fc.nat(), fc.nat(255), (size, at, el, bit) => {
        const index = at % size;
        const proof = tree.inclusionProof(index, size);
        const flipped = flipBit(proof, el % proof.length, bit);
        expect(verifyInclusion(leaves[index] as Uint8Array, index, size, flipped, tree.root(size)).ok).toBe(
          false,
        );
      }),
    );
  });

  it('proves consistency between any two sizes, and the proofs verify', () => {
    const leaves = leavesOf(150);
    const tree = treeOf(leaves);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 150 }), fc.integer({ min: 1, max: 150 }), (a, b) => {
        const [m, n] = a <= b ? [a, b] : [b, a];
        const proof = tree.consistencyProof(m, n);
        const result = verifyConsistency(
          m,
          n,
          referenceRoot(leaves.slice(0, m)),
          referenceRoot(leaves.slice(0, n)),
          proof,
        );
        expect(result.ok).toBe(true);
        if (m === n) expect(proof).toEqual([]);
      }),
    );
  });

  it('rejects a consistency proof with any single bit flipped, or against another old root', () => {
    const leaves = leavesOf(200);
    const tree = treeOf(leaves);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 199 }), fc.nat(), fc.nat(), fc.nat(255), (m, extra, el, bit) => {
        const n = m + 1 + (extra % (200 - m));
        const proof = tree.consistencyProof(m, n);
        const flipped = flipBit(proof, el % proof.length, bit);
        expect(verifyConsistency(m, n, tree.root(m), tree.root(n), flipped).ok).toBe(false);
        expect(verifyConsistency(m, n, tree.root(m - 1 || 1 + (m % 2)), tree.root(n), proof).ok).toBe(false);
      }),
    );
  });

  it('reads an honest proof against another signed old root as a fork, and names the true old root', () => {
    const leaves = leavesOf(120);
    const tree = treeOf(leaves);
    const other = treeOf(leavesOf(120).map((_, i) => leafHash(entryHash(utf8(`other ${i}`)))));
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 119 }), fc.nat(), (m, extra) => {
        const n = m + 1 + (extra % (120 - m));
        const finding = checkConsistencyProof(m, n, other.root(m), tree.root(n), tree.consistencyProof(m, n));
        // From a power-of-two size the proof starts at the old root itself, so it cannot show a fork.
        if (isPowerOfTwo(m)) expect(finding.kind).toBe('invalid');
        else expect(finding).toEqual({ kind: 'forked', firstRoot: tree.root(m) });
      }),
    );
  });

  it('never reads a forged proof between consistent roots as a fork', () => {
    const leaves = leavesOf(150);
    const tree = treeOf(leaves);
    const random = (length: number) =>
      Array.from({ length }, () => crypto.getRandomValues(new Uint8Array(32)));
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 149 }), fc.nat(), fc.nat(), fc.nat(255), (m, extra, el, bit) => {
        const n = m + 1 + (extra % (150 - m));
        const [root1, root2] = [tree.root(m), tree.root(n)];
        const honest = tree.consistencyProof(m, n);
        for (const forged of [
          [],
          random(honest.length),
          random(1),
          [...honest, ...random(1)],
          honest.slice(1),
          flipBit(honest, el % honest.length, bit),
        ]) {
          expect(checkConsistencyProof(m, n, root1, root2, forged).kind).toBe('invalid');
        }
        expect(checkConsistencyProof(m, n, root1, root2, honest)).toEqual({ kind: 'consistent' });
      }),
    );
  });

  it('refuses proofs outside the tree, and a consistency proof from size 0', () => {
    const tree = treeOf(leavesOf(10));
    expect(() => tree.inclusionProof(10, 10)).toThrow(RangeError);
    expect(() => tree.inclusionProof(0, 11)).toThrow(RangeError);
    expect(() => tree.root(11)).toThrow(RangeError);
    expect(() => tree.consistencyProof(0, 5)).toThrow(RangeError);
    expect(() => tree.consistencyProof(6, 5)).toThrow(RangeError);
    expect(tree.consistencyProof(7, 7)).toEqual([]);
    expect(verifyConsistency(0, 10, EMPTY_ROOT, tree.root(), tree.consistencyProof(1, 10)).ok).toBe(false);
  });

  it('answers proofs at 20,000 leaves from stored nodes, with few reads once the root is known', () => {
    const leaf = leafHash(new Uint8Array(32));
    const store = new MemoryNodeStore();
    let reads = 0;
    const counting = {
      get: (level: number, index: number) => {
        reads++;
        return store.get(level, index);
      },
      set: (level: number, index: number, hash: Uint8Array) => store.set(level, index, hash),
    };
    const tree = new MerkleTree(counting);
    for (let i = 0; i < 20_000; i++) tree.append(leaf);
    const root = tree.root();
    reads = 0;
    const proof = tree.inclusionProof(12_345);
    expect(proof).toHaveLength(15);
    expect(reads).toBeLessThanOrEqual(15);
    expect(verifyInclusion(leaf, 12_345, 20_000, proof, root).ok).toBe(true);
    expect(verifyConsistency(17_777, 20_000, tree.root(17_777), root, tree.consistencyProof(17_777)).ok).toBe(
      true,
    );
  });
});
