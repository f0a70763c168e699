import type { ProviderKind } from '../policy/catalog';
import { simAdapter } from './sim/sim-adapter';
import type { ModelAdapter } from './types';

/** Every adapter by catalog `kind`. Tests walk this registry, so an adapter added here is covered. */
export const adapters: Partial<Record<ProviderKind, ModelAdapter>> = {
  sim: simAdapter,
};

export function adapterFor(kind: ProviderKind): ModelAdapter | undefined {
  return adapters[kind];
}
