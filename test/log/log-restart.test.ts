import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { verifyCheckpoint } from '../../src/log/checkpoint';
import { logOriginOf } from '../../src/log/log-settings';
import { leafHash, verifyInclusion } from '../../src/log/merkle';
import { MemoryNodeStore, MerkleTree } from '../../src/log/merkle-tree';
import { nodeKey, SqlNodeStore } from '../../src/log/sql-node-store';
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

/** A memory store that also remembers the order its nodes were written in. */
class RecordingStore extends MemoryNodeStore {
  readonly written: { level: number; index: number; hash: Uint8Array }[] = [];
  override set(level: number, index: number, hash: Uint8Array): void {
    super.set(level, index, hash);
    this.written.push({ level, index, hash });
  }
}

describe("the log's node rows", () => {
  it('are keyed by the append that made them: each node written has a key above every earlier one', () => {
    expect([
      nodeKey(0, 0),
      nodeKey(0, 1),
      nodeKey(1, 0),
      nodeKey(0, 2),
      nodeKey(0, 3),
      nodeKey(1, 1),
    ]).toEqual([0, 64, 65, 128, 192, 193]);
    expect(nodeKey(2, 0)).toBe(3 * 64 + 2);
    const store = new RecordingStore();
    const tree = new MerkleTree(store);
    for (let i = 0; i < 1000; i++) tree.append(leafHash(entry(i)));
    const keys = store.written.map((n) => nodeKey(n.level, n.index));
    expect(keys.every((key, i) => i === 0 || key > (keys[i - 1] as number))).toBe(true);
    // The largest tree it keys stays within exact integers, and a larger one is refused.
    expect(Number.isSafeInteger(nodeKey(47, 0))).toBe(true);
    expect(() => nodeKey(0, 2 ** 47)).toThrow(RangeError);
  });

  it('of a log written in the old (level, index) layout are still read, and new nodes go to the new table', async () => {
    const stub = env.RECEIPT_LOG.getByName('test-legacy-layout');
    await stub.size(); // the object exists, with its (empty) new table
    const reference = new RecordingStore();
    const referenceTree = new MerkleTree(reference);
    for (let i = 0; i < 300; i++) referenceTree.append(leafHash(entry(i)));
    await runInDurableObject(stub, (_instance, state) => {
      const sql = state.storage.sql;
      sql.exec(`CREATE TABLE log_nodes (
        level INTEGER NOT NULL, idx INTEGER NOT NULL, hash BLOB NOT NULL, PRIMARY KEY (level, idx)
      ) WITHOUT ROWID`);
      for (const node of reference.written) {
        sql.exec(
          'INSERT INTO log_nodes (level, idx, hash) VALUES (?, ?, ?)',
          node.level,
          node.index,
          node.hash,
        );
      }
      const legacyRows = reference.written.length;

      const store = new SqlNodeStore(sql);
      const tree = new MerkleTree(store, 300);
      expect(tree.root()).toEqual(referenceTree.root());
      for (let i = 300; i < 520; i++) {
        tree.append(leafHash(entry(i)));
        referenceTree.append(leafHash(entry(i)));
      }
      store.commit();
      const newRows = reference.written.length - legacyRows;
      expect(sql.exec<{ n: number }>('SELECT COUNT(*) AS n FROM log_nodes').one().n).toBe(legacyRows);
      expect(sql.exec<{ n: number }>('SELECT COUNT(*) AS n FROM log_tree').one().n).toBe(newRows);

      // Read back through a fresh store (an empty cache, as after an eviction): every proof, at every
      // size, whether its nodes are old rows, new rows or both, is the reference tree's.
      const reread = new MerkleTree(new SqlNodeStore(sql), 520);
      expect(reread.root()).toEqual(referenceTree.root());
      for (const index of [0, 255, 256, 299, 300, 301, 511, 519]) {
        expect(reread.inclusionProof(index)).toEqual(referenceTree.inclusionProof(index));
      }
      expect(reread.consistencyProof(299, 520)).toEqual(referenceTree.consistencyProof(299, 520));
      expect(reread.root(300)).toEqual(referenceTree.root(300));
    });
  });
});
