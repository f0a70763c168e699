// Many rows of one table in as few INSERT statements as D1 allows: a statement binds at most 100
// parameters (developers.cloudflare.com/d1/platform/limits), so each holds as many whole rows as fit.
// A statement per row cost more than its row: D1 plans, runs and reports on each statement of a batch
// (measured: 0.04 ms of CPU per request less at 16 connections, README "Where the time goes").

export const MAX_BOUND_PARAMETERS = 100;

export interface InsertShape {
  /** `INSERT INTO t (a, b, …) VALUES`. */
  head: string;
  /** One row's `(?, ?, …)`; literals are allowed, only its `?` are parameters. */
  row: string;
  /** Appended after the rows, e.g. `ON CONFLICT (…) DO NOTHING`; empty for none. */
  tail: string;
}

const sqlCache = new Map<string, string>();

function sqlOf(shape: InsertShape, rows: number): string {
  const key = `${rows}\u0000${shape.head}\u0000${shape.row}\u0000${shape.tail}`;
  let sql = sqlCache.get(key);
  if (sql === undefined) {
    const values = Array.from({ length: rows }, () => shape.row).join(', ');
    sql = shape.tail ? `${shape.head} ${values} ${shape.tail}` : `${shape.head} ${values}`;
    if (sqlCache.size < 256) sqlCache.set(key, sql);
  }
  return sql;
}

/** The INSERT statements that write `rows` (each the parameters of one `shape.row`), in order. */
export function multiRowInserts(
  db: D1Database,
  shape: InsertShape,
  rows: readonly (readonly unknown[])[],
): D1PreparedStatement[] {
  const perRow = shape.row.split('?').length - 1;
  if (perRow < 1 || perRow > MAX_BOUND_PARAMETERS) {
    throw new RangeError(`a row binds 1 to ${MAX_BOUND_PARAMETERS} parameters, not ${perRow}`);
  }
  const rowsPerStatement = Math.floor(MAX_BOUND_PARAMETERS / perRow);
  const statements: D1PreparedStatement[] = [];
  for (let start = 0; start < rows.length; start += rowsPerStatement) {
    const chunk = rows.slice(start, start + rowsPerStatement);
    const values: unknown[] = [];
    for (const row of chunk) {
      if (row.length !== perRow)
        throw new RangeError(`every row binds ${perRow} parameters, not ${row.length}`);
      values.push(...row);
    }
    statements.push(db.prepare(sqlOf(shape, chunk.length)).bind(...values));
  }
  return statements;
}
