import { parseLogOrigin } from './log-shards';

// The registry of shards (log-shards.ts): kept by the deployment's own log object, empty in every
// other. Before a shard's first batch in its object's life, it registers its origin there, so no
// entry is ever in a shard the trust root might not list.

export interface ShardRegistryDeps {
  /** This object's origin; throws when it is not known. */
  origin: () => string;
  /** The deployment's own log origin (LOG_ORIGIN). */
  base: () => string;
  /** Asks the deployment's own log object `base` to record shard `self`. */
  registerWith: (base: string, self: string) => Promise<boolean>;
}

export class ShardRegistry {
  /** A shard other than the deployment's own log registers with it before its first batch here. */
  private registered: Promise<void> | undefined;

  constructor(
    private readonly sql: SqlStorage,
    private readonly deps: ShardRegistryDeps,
  ) {
    sql.exec('CREATE TABLE IF NOT EXISTS log_shards (origin TEXT PRIMARY KEY) WITHOUT ROWID');
  }

  /**
   * On the deployment's own log: records that shard `origin` holds entries, so trust roots list it.
   * False, and nothing recorded, for an origin on another host.
   */
  register(origin: string): boolean {
    const self = this.deps.origin();
    const own = parseLogOrigin(self);
    if (own === null || parseLogOrigin(origin)?.host !== own.host) return false;
    if (origin !== self) {
      this.sql.exec('INSERT OR IGNORE INTO log_shards (origin) VALUES (?)', origin);
    }
    return true;
  }

  /** On the deployment's own log: every shard that registered, sorted. */
  list(): string[] {
    return this.sql
      .exec<{ origin: string }>('SELECT origin FROM log_shards ORDER BY origin')
      .toArray()
      .map((row) => row.origin);
  }

  /**
   * This shard's registration with the deployment's own log, made once per object's life (again after
   * a failure). The deployment's own log, and objects named otherwise (tests, benches), skip it: the
   * default deployment makes no extra call.
   */
  registerOnce(): Promise<void> {
    const base = this.deps.base();
    const self = this.deps.origin();
    if (self === base) return Promise.resolve();
    this.registered ??= this.deps.registerWith(base, self).then((ok) => {
      if (!ok) throw new Error(`${self} could not register with ${base}`);
    });
    this.registered.catch(() => {
      this.registered = undefined;
    });
    return this.registered;
  }
}
