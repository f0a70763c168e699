import { formatAddCheckpoint } from '../../src/log/add-checkpoint-body';
import { signCheckpoint } from '../../src/log/checkpoint';
import { entryHash, leafHash } from '../../src/log/merkle';
import { MemoryNodeStore, MerkleTree } from '../../src/log/merkle-tree';
import type { NoteSigner } from '../../src/log/signed-note';
import { ed25519Pkcs8FromSeed } from '../../src/signing/keys';
import type { WitnessedHead } from '../../src/witness/witness';

// A log and a witness store for witness tests: the log is a tree of entries `${label}-${i}` signed
// by the log key, so two labels under one key are two histories of one log.

export const seed = (byte: number) => ed25519Pkcs8FromSeed(new Uint8Array(32).fill(byte));

export /** A log: a tree of entries `${label}-${i}`, signed by the log key; two labels are two histories. */
class TestLog {
  readonly tree = new MerkleTree(new MemoryNodeStore());
  constructor(
    private readonly signer: NoteSigner,
    private readonly label: string,
  ) {}
  grow(to: number): void {
    while (this.tree.size < to) {
      this.tree.append(leafHash(entryHash(new TextEncoder().encode(`${this.label}-${this.tree.size}`))));
    }
  }
  checkpoint(size = this.tree.size): Promise<string> {
    return signCheckpoint(
      { origin: this.signer.name, size, root: this.tree.root(size), extensions: [] },
      this.signer,
    );
  }
  async body(oldSize: number, size = this.tree.size): Promise<string> {
    const proof = oldSize === 0 || oldSize === size ? [] : this.tree.consistencyProof(oldSize, size);
    return formatAddCheckpoint({ oldSize, proof, checkpoint: await this.checkpoint(size) });
  }
}

export class MemoryStore {
  readonly heads = new Map<string, WitnessedHead>();
  readonly evidence: string[] = [];
  head(origin: string) {
    return this.heads.get(origin);
  }
  save(origin: string, head: WitnessedHead) {
    this.heads.set(origin, head);
  }
  refused(_origin: string, checkpoint: string) {
    this.evidence.push(checkpoint);
  }
}
