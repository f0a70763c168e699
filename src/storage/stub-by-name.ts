// Durable Object stubs by name, without the per-request work of deriving the id. `getByName` hashes
// the name into an id on every call; an id is a plain value, not bound to a request, so each isolate
// derives it once per name and makes only the stub (which belongs to the request) each time.

const MAX_NAMES = 10_000;
const idsByNamespace = new WeakMap<object, Map<string, DurableObjectId>>();

export function stubByName<T extends Rpc.DurableObjectBranded | undefined>(
  namespace: DurableObjectNamespace<T>,
  name: string,
): DurableObjectStub<T> {
  let ids = idsByNamespace.get(namespace);
  if (ids === undefined) {
    ids = new Map();
    idsByNamespace.set(namespace, ids);
  }
  let id = ids.get(name);
  if (id === undefined) {
    id = namespace.idFromName(name);
    // Bounded: names are API keys and tenants, a set that can grow without limit over an isolate's life.
    if (ids.size >= MAX_NAMES) ids.clear();
    ids.set(name, id);
  }
  return namespace.get(id);
}

/**
 * A stub made only when one of its methods is first called: a request that never calls it (its health
 * read came from this isolate's cache, its observations rode in another request's batch) makes none.
 */
export function lazyStub<T extends object>(make: () => T): T {
  let stub: T | undefined;
  return new Proxy({} as T, {
    get(_target, prop) {
      // Not a thenable: awaiting the proxy must not make a stub, nor call a remote `then`.
      if (prop === 'then') return undefined;
      return (...args: unknown[]) => {
        stub ??= make();
        const methods = stub as unknown as Record<PropertyKey, (...a: unknown[]) => unknown>;
        return methods[prop]?.(...args);
      };
    },
  });
}
