import type { PromptLayout, PromptMode } from '../contracts/reason-request';
import type { CatalogModel } from '../policy/catalog';

/** Whether a model can be given a prompt in this mode: base64 regions only for models marked capable. */
export function canReadMode(entry: CatalogModel, mode: PromptMode): boolean {
  return mode !== 'tags+base64' || entry.capabilities.base64Data;
}

/**
 * The rendering mode of a request, given its planned models in order. The caller's `rendering.mode`
 * wins (models that cannot read it are then dropped from the plan by the pipeline). Otherwise the first
 * planned model's catalog `promptMode` decides, default `tags`; a default never shrinks the plan, so a
 * base64 default gives way to `tags+datamark` when a planned fallback could not read base64.
 */
export function chooseMode(override: PromptMode | undefined, planned: readonly CatalogModel[]): PromptMode {
  if (override !== undefined) return override;
  const preferred = planned[0]?.promptMode ?? 'tags';
  if (preferred !== 'tags+base64') return preferred;
  return planned.every((entry) => canReadMode(entry, preferred)) ? preferred : 'tags+datamark';
}

/** Where the caller's instructions go: the caller's `rendering.layout`, else the first planned model's `promptLayout`, default `system`. */
export function chooseLayout(
  override: PromptLayout | undefined,
  planned: readonly CatalogModel[],
): PromptLayout {
  return override ?? planned[0]?.promptLayout ?? 'system';
}
