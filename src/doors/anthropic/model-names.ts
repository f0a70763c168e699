import type { Catalog, CatalogModel } from '../../policy/catalog';

// What `model` names at this door: a routing alias (`auto`, `valve/cost`…), a catalog id
// (`provider/model`), or a name an operator maps with a catalog model's `answersTo` (Claude Code sends
// its own model names, such as `claude-sonnet-4-5-20250929`).

/** Whether a name matches an `answersTo` entry: exactly, or with each `*` standing for any run of characters. */
export function nameMatches(pattern: string, name: string): boolean {
  if (!pattern.includes('*')) return pattern === name;
  const parts = pattern.split('*');
  const first = parts[0] ?? '';
  const last = parts.at(-1) ?? '';
  if (!name.startsWith(first) || name.length < first.length + last.length) return false;
  let at = first.length;
  for (const middle of parts.slice(1, -1)) {
    const found = name.indexOf(middle, at);
    if (found < 0) return false;
    at = found + middle.length;
  }
  return name.length - last.length >= at && name.endsWith(last);
}

/** The first catalog model (in catalog order) whose `answersTo` matches the name. */
export function modelAnsweringTo(catalog: Catalog, name: string): CatalogModel | undefined {
  return catalog.models.find((model) =>
    (model.answersTo ?? []).some((pattern) => nameMatches(pattern, name)),
  );
}

/**
 * The `model` the Reason mapping takes for a name: aliases and catalog ids as they are, a mapped name
 * as its model's `provider/model`; undefined for a name nothing answers to.
 */
export function resolveModelName(catalog: Catalog, name: string): string | undefined {
  if (name === 'auto' || name.includes('/')) return name;
  const model = modelAnsweringTo(catalog, name);
  return model === undefined ? undefined : `${model.provider}/${model.model}`;
}
