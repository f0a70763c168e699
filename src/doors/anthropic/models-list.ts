import type { Catalog, CatalogProvider } from '../../policy/catalog';
import { nameMatches } from './model-names';

// GET /anthropic/v1/models in Anthropic's list shape: Valve's routing aliases, every catalog model a
// request can reach here as `provider/model`, then the exact names operators mapped onto them
// (`answersTo` entries without a `*`), each showing the model that answers it.

/** The catalog keeps no release dates: every entry says the epoch. */
const created = '1970-01-01T00:00:00Z';

export interface ModelInfo {
  type: 'model';
  id: string;
  display_name: string;
  created_at: string;
  max_input_tokens: number | null;
  max_tokens: number | null;
}

const aliases: readonly [string, string][] = [
  ['auto', 'Valve: the policy’s choice'],
  ['valve/cost', 'Valve: the cheapest model that fits'],
  ['valve/speed', 'Valve: the fastest model that fits'],
  ['valve/quality', 'Valve: the best model that fits'],
];

export function modelInfosOf(
  catalog: Catalog,
  notConfigured: (provider: CatalogProvider) => string | undefined,
): ModelInfo[] {
  const usable = new Set(catalog.providers.filter((p) => notConfigured(p) === undefined).map((p) => p.id));
  const models = catalog.models.filter((model) => usable.has(model.provider));
  const infos: ModelInfo[] = aliases.map(([id, name]) => ({
    type: 'model',
    id,
    display_name: name,
    created_at: created,
    max_input_tokens: null,
    max_tokens: null,
  }));
  for (const model of models) {
    const id = `${model.provider}/${model.model}`;
    infos.push({
      type: 'model',
      id,
      display_name: id,
      created_at: created,
      max_input_tokens: model.contextTokens,
      max_tokens: model.maxOutputTokens,
    });
  }
  const named = new Set(infos.map((info) => info.id));
  for (const model of models) {
    for (const name of model.answersTo ?? []) {
      // A name the first matching model does not answer is answered by an earlier one: listed there.
      if (name.includes('*') || named.has(name)) continue;
      const first = catalog.models.find((m) => (m.answersTo ?? []).some((p) => nameMatches(p, name)));
      if (first !== model) continue;
      named.add(name);
      infos.push({
        type: 'model',
        id: name,
        display_name: `${name} → ${model.provider}/${model.model}`,
        created_at: created,
        max_input_tokens: model.contextTokens,
        max_tokens: model.maxOutputTokens,
      });
    }
  }
  return infos;
}

/** The list page: every model at once (`has_more` is false). */
export function modelsPageOf(infos: readonly ModelInfo[]) {
  return {
    data: infos,
    has_more: false,
    first_id: infos[0]?.id ?? null,
    last_id: infos.at(-1)?.id ?? null,
  };
}
