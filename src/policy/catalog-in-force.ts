import type { Catalog, CatalogProvider } from './catalog';
import { configuredProviders, type EnvLookup } from './configured-providers';
import { loadCatalog } from './load-catalog';

/**
 * What the catalog reads of the Worker's environment by a name it knows at compile time; the generated
 * `Env` has it. The secrets and bindings its providers name (`apiKeyEnv`, `binding`) are read by
 * `lookup`: the catalog picks those names, so no type can list them.
 */
export interface CatalogEnv {
  readonly VALVE_CATALOG?: string;
}

export interface CatalogInForce {
  catalog: Catalog;
  /** A secret or binding of the environment by the name a provider gives; undefined when it has none. */
  lookup: EnvLookup;
  /** Why a provider cannot be used (its key or binding is missing, …), or undefined when it can. */
  notConfigured: (provider: CatalogProvider) => string | undefined;
}

/** The catalog in force (`VALVE_CATALOG` or the default) and which of its providers this environment configures. */
export function catalogInForce(env: CatalogEnv): CatalogInForce {
  const catalog = loadCatalog(env.VALVE_CATALOG);
  const lookup: EnvLookup = (name) => (Object.hasOwn(env, name) ? Reflect.get(env, name) : undefined);
  return { catalog, lookup, notConfigured: configuredProviders(catalog, lookup) };
}
