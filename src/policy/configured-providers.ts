import type { Catalog, CatalogProvider } from './catalog';

/** Looks up a secret or binding by name in the Worker's environment; undefined or empty when unset. */
export type EnvLookup = (name: string) => unknown;

function hasValue(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '';
}

/**
 * Why each provider cannot be used, or undefined when it can: its key (`apiKeyEnv`) or binding is
 * missing, or it is a demo stand-in (the simulator) and a real provider is configured.
 */
export function configuredProviders(
  catalog: Catalog,
  lookup: EnvLookup,
): (provider: CatalogProvider) => string | undefined {
  const missing = (provider: CatalogProvider): string | undefined => {
    if (provider.apiKeyEnv && !hasValue(lookup(provider.apiKeyEnv))) {
      return `provider ${provider.id} has no key: set the ${provider.apiKeyEnv} secret`;
    }
    if (provider.binding && !hasValue(lookup(provider.binding))) {
      return `provider ${provider.id} needs the ${provider.binding} binding`;
    }
    return undefined;
  };
  const realConfigured = catalog.providers.some((p) => !p.demo && missing(p) === undefined);
  const reasons = new Map<string, string | undefined>();
  for (const provider of catalog.providers) {
    const reason =
      missing(provider) ??
      (provider.demo && realConfigured
        ? `provider ${provider.id} is a stand-in used only while no real provider is configured`
        : undefined);
    reasons.set(provider.id, reason);
  }
  return (provider) => reasons.get(provider.id);
}
