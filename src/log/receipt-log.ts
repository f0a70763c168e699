import { DurableObject } from 'cloudflare:workers';
import { type Checkpoint, signCheckpoint } from './checkpoint';
import { hashBase64 } from './hash-base64';
import { originOfObject } from './log-shards';
import { leafHash } from './merkle';
import { MerkleTree } from './merkle-tree';
import { createNoteSigner, type NoteSigner } from './signed-note';
import { SqlNodeStore } from './sql-node-store';
import { formatTlogProof } from './tlog-proof';

/** What an append answers: the entry's index and its C2SP tlog-proof, which ends in the new checkpoint. */
export interface LogAppend {
  index: number;
  proof: string;
}

export interface LogProofHashes {
  hashes: string[];
}

interface Waiter {
  entry: Uint8Array;
  resolve: (result: LogAppend) => void;
  reject: (error: unknown) => void;
}

const MAX_BATCH = 4096;

/** The log origin (`<host>/log/<shard>`) this deployment writes; also the checkpoint key name. */
export function logOriginOf(env: { LOG_ORIGIN?: string }): string {
  return env.LOG_ORIGIN?.trim() || 'valve.local/log/0';
}

/**
 * One shard of the append-only log (RFC 6962 tree, C2SP checkpoints), named by its origin (the object's
 * name, see log-shards.ts). Appends
 * that arrive while a batch is being signed wait for the next batch, which is written with its
 * checkpoint in one transaction; then each waiter gets its index and inclusion proof. One MerkleTree
 * lives in memory over the SQLite node table.
 */
export class ReceiptLog extends DurableObject<Env> {
  private readonly store: SqlNodeStore;
  private tree: MerkleTree;
  private latest: { size: number; note: string } | undefined;
  private pending: Waiter[] = [];
  private flushing = false;
  private signer: Promise<NoteSigner> | undefined;
  private readonly origin: string;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.origin = originOfObject(ctx.id.name, logOriginOf(env));
    this.store = new SqlNodeStore(ctx.storage.sql);
    ctx.storage.sql.exec(
      'CREATE TABLE IF NOT EXISTS log_checkpoints (size INTEGER PRIMARY KEY, note TEXT NOT NULL)',
    );
    const row = ctx.storage.sql
      .exec<{ size: number; note: string }>(
        'SELECT size, note FROM log_checkpoints ORDER BY size DESC LIMIT 1',
      )
      .toArray()[0];
    this.latest = row;
    this.tree = new MerkleTree(this.store, row?.size ?? 0);
  }

  /** Appends one 32-byte entry hash (receipt or audit) and resolves once it is in a signed checkpoint. */
  append(entry: Uint8Array): Promise<LogAppend> {
    if (!(entry instanceof Uint8Array) || entry.length !== 32) {
      throw new TypeError('a log entry is a 32-byte hash');
    }
    return new Promise((resolve, reject) => {
      this.pending.push({ entry, resolve, reject });
      if (!this.flushing) void this.flush();
    });
  }

  /** The latest signed checkpoint (an empty tree's is signed on first request). */
  async checkpoint(): Promise<string> {
    if (this.latest === undefined) await this.append0();
    return (this.latest as { note: string }).note;
  }

  /** The size of the latest signed checkpoint. */
  size(): number {
    return this.latest?.size ?? 0;
  }

  inclusion(index: number, size: number): LogProofHashes | null {
    if (!this.inRange(size) || !Number.isSafeInteger(index) || index < 0 || index >= size) return null;
    return { hashes: this.tree.inclusionProof(index, size).map(hashBase64) };
  }

  consistency(from: number, to: number): LogProofHashes | null {
    if (!this.inRange(to) || !Number.isSafeInteger(from) || from < 1 || from > to) return null;
    return { hashes: this.tree.consistencyProof(from, to).map(hashBase64) };
  }

  private inRange(size: number): boolean {
    return Number.isSafeInteger(size) && size >= 1 && size <= this.size();
  }

  private async append0(): Promise<void> {
    const note = await signCheckpoint(
      { origin: this.origin, size: 0, root: this.tree.root(0), extensions: [] },
      await this.signerOf(),
    );
    if (this.latest !== undefined) return; // a batch landed meanwhile
    this.ctx.storage.sql.exec('INSERT OR IGNORE INTO log_checkpoints (size, note) VALUES (0, ?)', note);
    this.latest = { size: 0, note };
  }

  private signerOf(): Promise<NoteSigner> {
    this.signer ??= createNoteSigner(this.origin, this.env.LOG_SIGNING_KEY);
    this.signer.catch(() => {
      this.signer = undefined;
    });
    return this.signer;
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.pending.length > 0) {
        // One turn of the event loop lets appends already queued behind this one join its batch.
        await new Promise((resolve) => setTimeout(resolve, 0));
        await this.writeBatch(this.pending.splice(0, MAX_BATCH));
      }
    } finally {
      this.flushing = false;
    }
  }

  private async writeBatch(batch: Waiter[]): Promise<void> {
    const startSize = this.tree.size;
    try {
      const signer = await this.signerOf();
      const indices = batch.map((w) => this.tree.append(leafHash(w.entry)));
      const checkpoint: Checkpoint = {
        origin: this.origin,
        size: this.tree.size,
        root: this.tree.root(),
        extensions: [],
      };
      // Appends that arrive while this signature is computed queue up for the next batch.
      const note = await signCheckpoint(checkpoint, signer);
      this.ctx.storage.transactionSync(() => {
        this.store.commit();
        this.ctx.storage.sql.exec(
          'INSERT INTO log_checkpoints (size, note) VALUES (?, ?)',
          checkpoint.size,
          note,
        );
      });
      this.latest = { size: checkpoint.size, note };
      // The batch's proofs share most of their hashes (the same node objects), so each is encoded once.
      const encoded = new Map<Uint8Array, string>();
      const encode = (hash: Uint8Array) => {
        let text = encoded.get(hash);
        if (text === undefined) {
          text = hashBase64(hash);
          encoded.set(hash, text);
        }
        return text;
      };
      batch.forEach((waiter, i) => {
        const index = indices[i] as number;
        const path = this.tree.inclusionProof(index, checkpoint.size);
        waiter.resolve({ index, proof: formatTlogProof({ index, path, checkpoint: note }, encode) });
      });
    } catch (error) {
      this.store.rollback();
      this.tree = new MerkleTree(this.store, startSize);
      for (const waiter of batch) waiter.reject(error);
    }
  }
}
