import type { Catalog, CatalogProvider } from '../../policy/catalog';

// GET /openai/v1/models in OpenAI's list shape: Valve's routing aliases, then every catalog model a
// request can reach here, as `provider/model` (the id `model` takes to pin it).

export const modelAliases = ['auto', 'valve/cost', 'valve/speed', 'valve/quality'] as const;

export function modelsListOf(
  catalog: Catalog,
  notConfigured: (provider: CatalogProvider) => string | undefined,
) {
  const usable = new Set(catalog.providers.filter((p) => notConfigured(p) === undefined).map((p) => p.id));
  return {
    object: 'list' as const,
    data: [
      ...modelAliases.map((id) => ({ id, object: 'model' as const, created: 0, owned_by: 'valve' })),
      ...catalog.models
        .filter((model) => usable.has(model.provider))
        .map((model) => ({
          id: `${model.provider}/${model.model}`,
          object: 'model' as const,
          created: 0,
          owned_by: model.provider,
        })),
    ],
  };
}

/** One entry of the list by id (`auto`, `valve/cost`, `sim/fast`…), or undefined when the door has no such model. */
export function modelOf(
  catalog: Catalog,
  notConfigured: (provider: CatalogProvider) => string | undefined,
  id: string,
) {
  return modelsListOf(catalog, notConfigured).data.find((model) => model.id === id);
}
