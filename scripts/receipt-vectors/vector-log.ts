import { encodeBase64 } from '../../src/encoding/base64';
import { signCheckpoint } from '../../src/log/checkpoint';
import { leafHash } from '../../src/log/merkle';
import { MemoryNodeStore, MerkleTree } from '../../src/log/merkle-tree';
import type { NoteSigner } from '../../src/log/signed-note';
import { formatTlogProof } from '../../src/log/tlog-proof';

// A log shard as ReceiptLog (src/log/receipt-log.ts) runs one, in memory: each append is a batch of
// one, so the tree grows by a leaf and a checkpoint is signed at every size, and the answer is the
// entry's index and its C2SP tlog-proof at that checkpoint. The same MerkleTree, checkpoint and proof
// code as the Durable Object, without the Workers runtime.

export class VectorLog {
  private readonly tree = new MerkleTree(new MemoryNodeStore());
  private readonly notes = new Map<number, string>();

  constructor(
    private readonly origin: string,
    private readonly signer: NoteSigner,
  ) {}

  get size(): number {
    return this.tree.size;
  }

  async append(entry: Uint8Array): Promise<{ index: number; proof: string }> {
    const index = this.tree.append(leafHash(entry));
    this.notes.set(this.tree.size, await this.signCheckpoint(this.tree.size, this.signer));
    return { index, proof: this.proof(index, this.tree.size) };
  }

  /** The checkpoint at `size`, signed by `signer` (by default the log's own key, as it signed it). */
  signCheckpoint(size: number, signer: NoteSigner = this.signer): Promise<string> {
    return signCheckpoint({ origin: this.origin, size, root: this.tree.root(size), extensions: [] }, signer);
  }

  /** The signed checkpoint the log wrote at `size`. */
  checkpoint(size: number): string {
    const note = this.notes.get(size);
    if (note === undefined) throw new RangeError(`the log signed no checkpoint at size ${size}`);
    return note;
  }

  /** Entry `index`'s tlog-proof at `size`, ending in `checkpoint` (the log's own by default). */
  proof(index: number, size: number, checkpoint: string = this.checkpoint(size)): string {
    return formatTlogProof({ index, path: this.tree.inclusionProof(index, size), checkpoint });
  }

  inclusionPath(index: number, size: number): string[] {
    return this.tree.inclusionProof(index, size).map(encodeBase64);
  }

  /** GET /v1/log/consistency?from=&to= as the log answers it. */
  consistency(from: number, to: number): { from: number; to: number; hashes: string[] } {
    return { from, to, hashes: this.tree.consistencyProof(from, to).map(encodeBase64) };
  }

  root(size: number): string {
    return encodeBase64(this.tree.root(size));
  }
}
