import { encodeBase64 } from '../encoding/base64';
import { bytesToHex } from '../encoding/hex';
import { AppendQueue, type QueuedAppend } from './append-queue';
import type { LogSigning } from './log-signing';
import { leafHash } from './merkle';
import { MerkleTree } from './merkle-tree';
import { SqlNodeStore } from './sql-node-store';
import { formatTlogProof } from './tlog-proof';

// Appends and batches: the shard's tree and latest signed checkpoint. Appends that arrive while a
// batch is being signed, or within a busy log's batch window (append-queue.ts), wait for the next
// batch, which is written with its checkpoint in one transaction; then each waiter gets its index and
// inclusion proof. One MerkleTree lives in memory over the SQLite node table.

/** What an append answers: the entry's index and its C2SP tlog-proof, which ends in the new checkpoint. */
export interface LogAppend {
  index: number;
  proof: string;
}

/** The part of a Durable Object's storage a batch is written through. */
export interface BatchStorage {
  readonly sql: SqlStorage;
  transactionSync<T>(closure: () => T): T;
}

/** What a batch needs besides storage; the log object wires it to its other parts. */
export interface BatchHooks {
  signing: LogSigning;
  /** Before a batch is signed: a shard registers with the deployment's own log (shard-registry.ts). */
  beforeBatch: () => Promise<void>;
  /** After a batch is written: the witnesses are due a round. */
  afterBatch: () => void;
  /** Entry `index`'s tlog-proof as the log answers it now; null when no checkpoint holds it. */
  proofOf: (index: number) => string | null;
}

export interface SignedCheckpoint {
  size: number;
  note: string;
}

// A statement takes at most 100 bound parameters in a Durable Object's SQLite.
const ENTRIES_PER_INSERT = 48;

/**
 * The batch's entries, each at the index the tree gave its leaf (never a position counted apart from
 * the tree, so an entry bundle and the hash tiles cannot disagree), in as few statements as the
 * parameter limit allows.
 */
function insertEntries(sql: SqlStorage, batch: readonly { idx: number; entry: Uint8Array }[]): void {
  for (let at = 0; at < batch.length; at += ENTRIES_PER_INSERT) {
    const chunk = batch.slice(at, at + ENTRIES_PER_INSERT);
    const values = chunk.flatMap(({ idx, entry }) => [idx, entry]);
    sql.exec(
      `INSERT INTO log_entries (idx, entry) VALUES ${chunk.map(() => '(?, ?)').join(', ')}`,
      ...values,
    );
  }
}

/** Base64 of each hash, encoded once: a batch's proofs share most of their hashes (the same node objects). */
function memoizedBase64(): (hash: Uint8Array) => string {
  const encoded = new Map<Uint8Array, string>();
  return (hash) => {
    let text = encoded.get(hash);
    if (text === undefined) {
      text = encodeBase64(hash);
      encoded.set(hash, text);
    }
    return text;
  };
}

export class LogBatches {
  private readonly store: SqlNodeStore;
  private treeNow: MerkleTree;
  private latestNow: SignedCheckpoint | undefined;
  private readonly queue = new AppendQueue<LogAppend>((batch) => this.writeBatch(batch));
  /** appendOnce entries on their way in, by leaf hash (hex), so a concurrent second call joins the first. */
  private readonly inFlight = new Map<string, Promise<LogAppend>>();

  constructor(
    private readonly storage: BatchStorage,
    private readonly hooks: BatchHooks,
  ) {
    const sql = storage.sql;
    this.store = new SqlNodeStore(sql);
    sql.exec('CREATE TABLE IF NOT EXISTS log_checkpoints (size INTEGER PRIMARY KEY, note TEXT NOT NULL)');
    sql.exec(
      'CREATE TABLE IF NOT EXISTS log_once (leaf BLOB PRIMARY KEY, idx INTEGER NOT NULL) WITHOUT ROWID',
    );
    // Each entry as appended, for C2SP entry bundles (a log begun before this table serves none of its earlier ones).
    sql.exec('CREATE TABLE IF NOT EXISTS log_entries (idx INTEGER PRIMARY KEY, entry BLOB NOT NULL)');
    this.latestNow = sql
      .exec<{ size: number; note: string }>(
        'SELECT size, note FROM log_checkpoints ORDER BY size DESC LIMIT 1',
      )
      .toArray()[0];
    this.treeNow = new MerkleTree(this.store, this.latestNow?.size ?? 0);
  }

  /** The tree as far as it is appended (a batch being signed included). */
  get tree(): MerkleTree {
    return this.treeNow;
  }

  /** The latest signed checkpoint; undefined before the first. */
  get latest(): SignedCheckpoint | undefined {
    return this.latestNow;
  }

  /** The size of the latest signed checkpoint. */
  size(): number {
    return this.latestNow?.size ?? 0;
  }

  /** Queues one entry for the next batch; resolves once it is in a signed checkpoint. */
  append(entry: Uint8Array): Promise<LogAppend> {
    return this.queue.enqueue({ entry });
  }

  /**
   * Appends an entry unless an appendOnce already put it in (or is putting it in), and answers its
   * index with a proof at the latest checkpoint. `record`, when given, records the index with the
   * batch that appends it, or once the index is known when the entry was already in.
   */
  appendOnce(entry: Uint8Array, record?: (index: number) => void): Promise<LogAppend> {
    const leaf = leafHash(entry);
    const key = bytesToHex(leaf);
    const known = this.inFlight.get(key) ?? this.loggedOnce(leaf);
    if (known !== undefined) {
      if (record === undefined) return known;
      return known.then((once) => {
        record(once.index);
        return once;
      });
    }
    const appended = this.queue.enqueue({ entry, once: leaf, record });
    this.inFlight.set(key, appended);
    const forget = () => this.inFlight.delete(key);
    appended.then(forget, forget);
    return appended;
  }

  /** The answer of an entry an earlier appendOnce logged, at the latest checkpoint. */
  private loggedOnce(leaf: Uint8Array): Promise<LogAppend> | undefined {
    const index = this.storage.sql
      .exec<{ idx: number }>('SELECT idx FROM log_once WHERE leaf = ?', leaf)
      .toArray()[0]?.idx;
    const proof = index === undefined ? null : this.hooks.proofOf(index);
    return index !== undefined && proof !== null ? Promise.resolve({ index, proof }) : undefined;
  }

  /** Signs the empty tree's checkpoint, unless a batch lands first. */
  async signEmpty(): Promise<void> {
    const note = await this.hooks.signing.sign(0, this.treeNow.root(0));
    if (this.latestNow !== undefined) return; // a batch landed meanwhile
    this.storage.sql.exec('INSERT OR IGNORE INTO log_checkpoints (size, note) VALUES (0, ?)', note);
    this.latestNow = { size: 0, note };
  }

  private async writeBatch(batch: QueuedAppend<LogAppend>[]): Promise<void> {
    const startSize = this.treeNow.size;
    try {
      const signer = await this.hooks.signing.signerOf();
      await this.hooks.beforeBatch();
      const indices = batch.map((w) => this.treeNow.append(leafHash(w.entry)));
      const size = this.treeNow.size;
      // Appends that arrive while this signature is computed queue up for the next batch.
      const note = await this.hooks.signing.sign(size, this.treeNow.root(), signer);
      this.commit(batch, indices, { size, note });
      this.latestNow = { size, note };
      this.hooks.afterBatch();
      const encode = memoizedBase64();
      batch.forEach((waiter, i) => {
        const index = indices[i] as number;
        const path = this.treeNow.inclusionProof(index, size);
        waiter.resolve({ index, proof: formatTlogProof({ index, path, checkpoint: note }, encode) });
      });
    } catch (error) {
      this.store.rollback();
      this.treeNow = new MerkleTree(this.store, startSize);
      for (const waiter of batch) waiter.reject(error);
    }
  }

  /** The batch's nodes, checkpoint, entries, appendOnce leaves and claim rows, in one transaction. */
  private commit(batch: QueuedAppend<LogAppend>[], indices: number[], checkpoint: SignedCheckpoint): void {
    const sql = this.storage.sql;
    this.storage.transactionSync(() => {
      this.store.commit();
      sql.exec('INSERT INTO log_checkpoints (size, note) VALUES (?, ?)', checkpoint.size, checkpoint.note);
      insertEntries(
        sql,
        batch.map((waiter, i) => ({ idx: indices[i] as number, entry: waiter.entry })),
      );
      batch.forEach((waiter, i) => {
        if (waiter.once) {
          sql.exec('INSERT INTO log_once (leaf, idx) VALUES (?, ?)', waiter.once, indices[i] as number);
        }
        waiter.record?.(indices[i] as number);
      });
    });
  }
}
