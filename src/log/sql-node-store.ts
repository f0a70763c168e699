import type { MerkleNodeStore } from './merkle-tree';

// The log's Merkle nodes in the Durable Object's SQLite, keyed (level, index). Writes of a batch are
// buffered until `commit` (inside the batch's transaction) or dropped by `rollback`, so a batch whose
// checkpoint could not be signed leaves no trace. Recently used nodes stay in a bounded memory cache.

const CACHE_LIMIT = 65_536;

export class SqlNodeStore implements MerkleNodeStore {
  private readonly buffered = new Map<string, { level: number; index: number; hash: Uint8Array }>();
  private readonly cache = new Map<string, Uint8Array>();

  constructor(private readonly sql: SqlStorage) {
    sql.exec(`CREATE TABLE IF NOT EXISTS log_nodes (
      level INTEGER NOT NULL, idx INTEGER NOT NULL, hash BLOB NOT NULL, PRIMARY KEY (level, idx)
    ) WITHOUT ROWID`);
  }

  get(level: number, index: number): Uint8Array | undefined {
    const key = `${level}/${index}`;
    const hit = this.buffered.get(key)?.hash ?? this.cache.get(key);
    if (hit !== undefined) return hit;
    const row = this.sql
      .exec<{ hash: ArrayBuffer }>('SELECT hash FROM log_nodes WHERE level = ? AND idx = ?', level, index)
      .toArray()[0];
    if (row === undefined) return undefined;
    const hash = new Uint8Array(row.hash);
    this.remember(key, hash);
    return hash;
  }

  set(level: number, index: number, hash: Uint8Array): void {
    this.buffered.set(`${level}/${index}`, { level, index, hash });
  }

  /** Writes the buffered nodes; call inside the batch's transaction. */
  commit(): void {
    for (const [key, { level, index, hash }] of this.buffered) {
      this.sql.exec('INSERT INTO log_nodes (level, idx, hash) VALUES (?, ?, ?)', level, index, hash);
      this.remember(key, hash);
    }
    this.buffered.clear();
  }

  /** Drops the batch's nodes; the cache too, in case a failed transaction had already cached some. */
  rollback(): void {
    this.buffered.clear();
    this.cache.clear();
  }

  private remember(key: string, hash: Uint8Array): void {
    if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
    this.cache.set(key, hash);
  }
}
