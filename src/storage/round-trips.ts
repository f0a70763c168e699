// The storage round trips one request waits on (Durable Object calls, D1 queries), counted where they
// are awaited and reported in the answer's `Server-Timing` header (W3C Server Timing,
// https://www.w3.org/TR/server-timing/): one `storage` entry per round trip, its desc naming the store
// and what for, e.g. `storage;desc="do:rate-limit";dur=0.31`. Locally every store shares one thread, so
// the count, not the duration, is what predicts a request's latency in production. Writes behind the
// answer go to the uncounted bindings: they are not on the answer's path.

export interface RoundTrip {
  /** `<kind>:<what>`, kind `do` or `d1`. */
  desc: string;
  durMs: number;
}

export class RoundTrips {
  readonly trips: RoundTrip[] = [];

  /** Awaits one round trip and records it, whether it answers or throws. */
  async time<T>(desc: string, work: () => Promise<T> | T): Promise<T> {
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.trips.push({ desc, durMs: performance.now() - started });
    }
  }

  /** The `Server-Timing` value: the storage entries, then the request's total so far. */
  header(totalMs: number): string {
    const entries = this.trips.map((t) => `storage;desc="${t.desc}";dur=${t.durMs.toFixed(2)}`);
    entries.push(`total;dur=${totalMs.toFixed(2)}`);
    return entries.join(', ');
  }
}

/**
 * A Durable Object stub whose method calls are counted as round trips named `desc`. Only calls:
 * reading a property of the stub is not a round trip.
 */
export function countedStub<T extends object>(stub: T, trips: RoundTrips, desc: string): T {
  // Called as a method of the stub itself: an RPC method is a proxy, whose own `apply` or `call` would
  // be taken for a remote method of that name. Every property read of an RPC stub makes a new native
  // object, so a method is read once, when it is called: every name but a stub's own `id` and `name`
  // (and `then`, which a stub does not have, so that awaiting it is not a call) is taken for a method.
  const methods = stub as unknown as Record<string, (...a: unknown[]) => unknown>;
  return new Proxy(stub, {
    get(target, prop) {
      if (typeof prop !== 'string' || STUB_PROPERTIES.has(prop)) return Reflect.get(target, prop);
      return (...args: unknown[]) => trips.time(desc, () => methods[prop]?.(...args));
    },
  });
}

const STUB_PROPERTIES = new Set(['then', 'id', 'name']);

const realStatements = new WeakMap<object, D1PreparedStatement>();

function countedStatement(
  statement: D1PreparedStatement,
  trips: RoundTrips,
  desc: string,
): D1PreparedStatement {
  const counted = new Proxy(statement, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop);
      if (typeof value !== 'function') return value;
      const method = value as (...a: unknown[]) => unknown;
      if (prop === 'bind') {
        return (...args: unknown[]) =>
          countedStatement(method.apply(target, args) as D1PreparedStatement, trips, desc);
      }
      if (prop === 'run' || prop === 'first' || prop === 'all' || prop === 'raw') {
        return (...args: unknown[]) => trips.time(desc, () => method.apply(target, args));
      }
      return method.bind(target);
    },
  });
  realStatements.set(counted, statement);
  return counted;
}

/** A D1 database whose queries (each `run`/`first`/`all`/`raw`, each `batch`) count as round trips `desc`. */
export function countedD1(db: D1Database, trips: RoundTrips, desc: string): D1Database {
  return new Proxy(db, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop);
      if (typeof value !== 'function') return value;
      const method = value as (...a: unknown[]) => unknown;
      if (prop === 'prepare') {
        return (query: string) => countedStatement(target.prepare(query), trips, desc);
      }
      if (prop === 'batch') {
        return (statements: D1PreparedStatement[]) =>
          trips.time(desc, () => target.batch(statements.map((s) => realStatements.get(s) ?? s)));
      }
      return method.bind(target);
    },
  });
}
