import type { MerkleNodeStore } from './merkle-tree';

// The log's Merkle nodes in the Durable Object's SQLite. Writes of a batch are buffered until `commit`
// (inside the batch's transaction) or dropped by `rollback`, so a batch whose checkpoint could not be
// signed leaves no trace. Recently used nodes stay in a bounded memory cache. Both are kept per level
// and keyed by the index, a number: no key string per lookup.
//
// A node's row is keyed by when it was made, not by where it sits: node (level, index) is completed
// by the append of leaf (index + 1)·2^level − 1, its "maker", and its key is maker·64 + level. Every
// node a batch writes then has a key above every earlier one, so a batch fills the end of one B-tree
// page or two. Keyed (level, index), as this table's predecessor `log_nodes` was, a batch wrote at the
// end of every level's run of rows: about eleven pages for sixteen appends, each a page of WAL to sync
// and later to copy into the database file.
// A log written before this layout keeps its old rows where they are: `log_nodes` holds every node
// whose maker is below the leaf count it reached, and is read for those alone, never written again.

const CACHE_LIMIT = 65_536;
// Rows per INSERT: a statement takes at most 100 bound parameters in a Durable Object's SQLite, and
// one statement per 48 nodes instead of one per node is most of what a batch costs in SQL.
const ROWS_PER_INSERT = 48;
const insertOf = (rows: number) =>
  `INSERT INTO log_tree (pos, hash) VALUES ${Array.from({ length: rows }, () => '(?, ?)').join(', ')}`;
const FULL_INSERT = insertOf(ROWS_PER_INSERT);
/** Levels per maker in a key: a tree of up to 2^47 leaves has at most 48 levels, and its keys stay below 2^53. */
const LEVEL_SLOTS = 64;
const MAX_LEAVES = 2 ** 47;

/** The index of the leaf whose append completed node (level, index). */
function makerOf(level: number, index: number): number {
  return (index + 1) * 2 ** level - 1;
}

/** The row key of node (level, index): its maker leaf's index, then its level. */
export function nodeKey(level: number, index: number): number {
  const maker = makerOf(level, index);
  if (maker >= MAX_LEAVES) throw new RangeError(`a log holds at most 2^47 entries (node ${level}/${index})`);
  return maker * LEVEL_SLOTS + level;
}

type Level = Map<number, Uint8Array>;

export class SqlNodeStore implements MerkleNodeStore {
  private buffered: Level[] = [];
  private cache: Level[] = [];
  private cached = 0;
  /** Leaves whose nodes are in the legacy `log_nodes` table (0 when the log began with this layout). */
  private readonly legacyLeaves: number;

  constructor(private readonly sql: SqlStorage) {
    sql.exec('CREATE TABLE IF NOT EXISTS log_tree (pos INTEGER PRIMARY KEY, hash BLOB NOT NULL)');
    const legacy = sql
      .exec<{ n: number }>(
        "SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'log_nodes'",
      )
      .one().n;
    this.legacyLeaves =
      legacy === 0
        ? 0
        : (sql.exec<{ n: number | null }>('SELECT MAX(idx) + 1 AS n FROM log_nodes WHERE level = 0').one()
            .n ?? 0);
  }

  get(level: number, index: number): Uint8Array | undefined {
    const hit = this.buffered[level]?.get(index) ?? this.cache[level]?.get(index);
    if (hit !== undefined) return hit;
    const row = this.readRow(level, index);
    if (row === undefined) return undefined;
    const hash = new Uint8Array(row.hash);
    this.remember(level, index, hash);
    return hash;
  }

  set(level: number, index: number, hash: Uint8Array): void {
    levelOf(this.buffered, level).set(index, hash);
  }

  private readRow(level: number, index: number): { hash: ArrayBuffer } | undefined {
    if (makerOf(level, index) < this.legacyLeaves) {
      return this.sql
        .exec<{ hash: ArrayBuffer }>('SELECT hash FROM log_nodes WHERE level = ? AND idx = ?', level, index)
        .toArray()[0];
    }
    return this.sql
      .exec<{ hash: ArrayBuffer }>('SELECT hash FROM log_tree WHERE pos = ?', nodeKey(level, index))
      .toArray()[0];
  }

  /** Writes the buffered nodes, in key order; call inside the batch's transaction. */
  commit(): void {
    const rows: { key: number; hash: Uint8Array }[] = [];
    for (const [level, nodes] of this.buffered.entries()) {
      for (const [index, hash] of nodes ?? []) rows.push({ key: nodeKey(level, index), hash });
    }
    rows.sort((a, b) => a.key - b.key);
    const values: (number | Uint8Array)[] = [];
    const flush = (count: number) => {
      this.sql.exec(count === ROWS_PER_INSERT ? FULL_INSERT : insertOf(count), ...values);
      values.length = 0;
    };
    for (const row of rows) {
      values.push(row.key, row.hash);
      if (values.length === ROWS_PER_INSERT * 2) flush(ROWS_PER_INSERT);
    }
    if (values.length > 0) flush(values.length / 2);
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
