import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { verifyCheckpoint } from '../../src/log/checkpoint';
import { leafHash, verifyInclusion } from '../../src/log/merkle';
import { MerkleTree } from '../../src/log/merkle-tree';
import { logOriginOf } from '../../src/log/receipt-log';
import { SqlNodeStore } from '../../src/log/sql-node-store';
import { serviceKeysOf } from '../../src/receipts/service-keys';

// Crash recovery: what an object rebuilt from its SQLite alone (a new store with an empty cache, as
// after an eviction or a crash) knows must be exactly the latest signed checkpoint's tree.

function entry(n: number): Uint8Array {
  const bytes = new Uint8Array(32);
  new DataView(bytes.buffer).setUint32(0, n);
  bytes[31] = 3;
  return bytes;
}

describe('a ReceiptLog rebuilt from its SQLite', () => {
  it('has every node of its latest checkpoint, and proves every entry against its root', async () => {
    const stub = env.RECEIPT_LOG.getByName('test-restart');
    const entries = Array.from({ length: 777 }, (_, i) => entry(i));
    // Concurrent appends land in arrival order: each answer says where its entry went.
    const indexOf = new Map<number, Uint8Array>();
    // Several batches of different sizes, so that nodes complete across batch boundaries.
    for (const slice of [
      entries.slice(0, 1),
      entries.slice(1, 300),
      entries.slice(300, 301),
      entries.slice(301),
    ]) {
      const results = await Promise.all(slice.map((e) => stub.append(e)));
      for (const [i, r] of results.entries()) indexOf.set(r.index, slice[i] as Uint8Array);
    }
    const pinned = (await serviceKeysOf(env, logOriginOf(env))).trustRoot.logs[0] as {
      origin: string;
      verifierKey: string;
    };
    const checkpoint = await verifyCheckpoint(await stub.checkpoint(), pinned);
    if (!checkpoint.ok) throw new Error(checkpoint.reason);
    expect(checkpoint.value.size).toBe(777);

    await runInDurableObject(stub, (_instance, state) => {
      const tree = new MerkleTree(new SqlNodeStore(state.storage.sql), 777);
      expect(tree.root()).toEqual(checkpoint.value.root);
      for (const index of [0, 1, 299, 300, 301, 511, 512, 776]) {
        const path = tree.inclusionProof(index);
        expect(
          verifyInclusion(leafHash(indexOf.get(index) as Uint8Array), index, 777, path, checkpoint.value.root)
            .ok,
        ).toBe(true);
      }
      // And it goes on appending where the checkpoint left off.
      expect(tree.append(leafHash(entry(777)))).toBe(777);
    });
  });
});
