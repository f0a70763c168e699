import type { MerkleNodeStore } from './merkle-tree';

// The log's Merkle nodes in the Durable Object's SQLite, keyed (level, index). Writes of a batch are
// buffered until `commit` (inside the batch's transaction) or dropped by `rollback`, so a batch whose
// checkpoint could not be signed leaves no trace. Recently used nodes stay in a bounded memory cache.
// Both are kept per level and keyed by the index, a number: no key string per lookup.

const CACHE_LIMIT = 65_536;
// Rows per INSERT: a statement takes at most 100 bound parameters in a Durable Object's SQLite, and
// one statement per 32 nodes instead of one per node is most of what a batch costs in SQL.
const ROWS_PER_INSERT = 32;
const insertOf = (rows: number) =>
  `INSERT INTO log_nodes (level, idx, hash) VALUES ${Array.from({ length: rows }, () => '(?, ?, ?)').join(', ')}`;
const FULL_INSERT = insertOf(ROWS_PER_INSERT);

type Level = Map<number, Uint8Array>;

export class SqlNodeStore implements MerkleNodeStore {
  private buffered: Level[] = [];
  private cache: Level[] = [];
  private cached = 0;

  constructor(private readonly sql: SqlStorage) {
    sql.exec(`CREATE TABLE IF NOT EXISTS log_nodes (
      level INTEGER NOT NULL, idx INTEGER NOT NULL, hash BLOB NOT NULL, PRIMARY KEY (level, idx)
    ) WITHOUT ROWID`);
  }

  get(level: number, index: number): Uint8Array | undefined {
    const hit = this.buffered[level]?.get(index) ?? this.cache[level]?.get(index);
    if (hit !== undefined) return hit;
    const row = this.sql
      .exec<{ hash: ArrayBuffer }>('SELECT hash FROM log_nodes WHERE level = ? AND idx = ?', level, index)
      .toArray()[0];
    if (row === undefined) return undefined;
    const hash = new Uint8Array(row.hash);
    this.remember(level, index, hash);
    return hash;
  }

  set(level: number, index: number, hash: Uint8Array): void {
    levelOf(this.buffered, level).set(index, hash);
  }

  /** Writes the buffered nodes; call inside the batch's transaction. */
  commit(): void {
    const values: (number | Uint8Array)[] = [];
    const flush = (rows: number) => {
      this.sql.exec(rows === ROWS_PER_INSERT ? FULL_INSERT : insertOf(rows), ...values);
      values.length = 0;
    };
    for (const [level, nodes] of this.buffered.entries()) {
      if (nodes === undefined) continue;
      for (const [index, hash] of nodes) {
        values.push(level, index, hash);
        if (values.length === ROWS_PER_INSERT * 3) flush(ROWS_PER_INSERT);
      }
    }
    if (values.length > 0) flush(values.length / 3);
    for (const [level, nodes] of this.buffered.entries()) {
      for (const [index, hash] of nodes ?? []) this.remember(level, index, hash);
    }
    this.buffered = [];
  }

  /** Drops the batch's nodes; the cache too, in case a failed transaction had already cached some. */
  rollback(): void {
    this.buffered = [];
    this.cache = [];
    this.cached = 0;
  }

  private remember(level: number, index: number, hash: Uint8Array): void {
    if (this.cached >= CACHE_LIMIT) {
      this.cache = [];
      this.cached = 0;
    }
    const nodes = levelOf(this.cache, level);
    if (!nodes.has(index)) this.cached++;
    nodes.set(index, hash);
  }
}

function levelOf(levels: Level[], level: number): Level {
  let nodes = levels[level];
  if (nodes === undefined) {
    nodes = new Map();
    levels[level] = nodes;
  }
  return nodes;
}
