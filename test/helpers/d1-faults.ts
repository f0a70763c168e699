/**
 * A D1 database whose first write matching `matches` fails (alone or in a batch), as an unavailable
 * D1 would; every other statement goes to `db`.
 */
export function failingWrites(db: D1Database, matches: (sql: string) => boolean): D1Database {
  let armed = true;
  const doomed = new WeakSet<D1PreparedStatement>();
  const fail = () => {
    armed = false;
    throw new Error('D1_ERROR: the database is unavailable (injected by the test)');
  };
  const track = (statement: D1PreparedStatement): D1PreparedStatement => {
    doomed.add(statement);
    const bind = statement.bind.bind(statement);
    const run = statement.run.bind(statement);
    statement.bind = (...values: unknown[]) => track(bind(...values));
    statement.run = async <T>() => (armed ? fail() : ((await run()) as D1Result<T>));
    return statement;
  };
  return {
    prepare: (sql: string) => {
      const statement = db.prepare(sql);
      return matches(sql) ? track(statement) : statement;
    },
    batch: async <T>(statements: D1PreparedStatement[]) =>
      armed && statements.some((s) => doomed.has(s)) ? fail() : db.batch<T>(statements),
    exec: (sql: string) => db.exec(sql),
    withSession: (constraint?: string) => db.withSession(constraint),
    dump: () => db.dump(),
  } as D1Database;
}

/**
 * A D1 database that counts the statements matching `matches` as they complete, so a test can wait
 * until a request has looked at a row a given number of times (a waiting duplicate polls).
 */
export function watchedReads(db: D1Database, matches: (sql: string) => boolean) {
  let count = 0;
  const waiters: { n: number; resolve: () => void }[] = [];
  const seen = () => {
    count += 1;
    for (const waiter of waiters.filter((w) => w.n <= count)) waiter.resolve();
  };
  const watch = (statement: D1PreparedStatement): D1PreparedStatement => {
    const bind = statement.bind.bind(statement);
    const first = statement.first.bind(statement) as (column?: string) => Promise<unknown>;
    statement.bind = (...values: unknown[]) => watch(bind(...values));
    statement.first = (async (column?: string) => {
      const row = await first(column);
      seen();
      return row;
    }) as D1PreparedStatement['first'];
    return statement;
  };
  const watched = {
    prepare: (sql: string) => (matches(sql) ? watch(db.prepare(sql)) : db.prepare(sql)),
    batch: <T>(statements: D1PreparedStatement[]) => db.batch<T>(statements),
    exec: (sql: string) => db.exec(sql),
    withSession: (constraint?: string) => db.withSession(constraint),
    dump: () => db.dump(),
  } as D1Database;
  return {
    db: watched,
    /** Resolves once `n` matching statements have completed. */
    seen: (n: number) =>
      new Promise<void>((resolve) => {
        if (count >= n) resolve();
        else waiters.push({ n, resolve });
      }),
  };
}
