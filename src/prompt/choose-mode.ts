import type { PromptLayout, PromptMode } from '../contracts/reason-request';
import type { CatalogModel, CatalogProvider } from '../policy/catalog';

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

/**
 * Hosts of the first-party APIs whose own models get the `system` layout by default: an `openai` provider
 * anywhere else is an OpenAI-compatible server (llama.cpp, vLLM, Ollama, a router), most often in front
 * of an open model (docs/trust.md "The default a new model gets").
 */
const openAiHosts = [/^api\.openai\.com$/, /\.openai\.azure\.com$/];

/**
 * The layout a model gets when neither the request nor its catalog entry names one: `system` for the
 * first-party hosted APIs (OpenAI's own, Anthropic, Gemini), whose models are trained to give the system
 * message precedence over the user's turns, and for the simulator; `data-turn` for every other model (an
 * open model behind an OpenAI-compatible server, Workers AI): of the layouts measured on the local
 * models, the one that kept the task on both and stopped the attacks on the larger (docs/trust.md).
 */
export function defaultLayout(provider: Pick<CatalogProvider, 'kind' | 'baseUrl'>): PromptLayout {
  switch (provider.kind) {
    case 'anthropic':
    case 'gemini':
    case 'sim':
      return 'system';
    case 'workers-ai':
      return 'data-turn';
    case 'openai': {
      if (provider.baseUrl === undefined) return 'system';
      const host = new URL(provider.baseUrl).hostname;
      return openAiHosts.some((pattern) => pattern.test(host)) ? 'system' : 'data-turn';
    }
  }
}

/**
 * Where the caller's instructions go: the caller's `rendering.layout`, else the first planned model's
 * `promptLayout`, else its provider's default (defaultLayout); `system` when nothing is planned.
 */
export function chooseLayout(
  override: PromptLayout | undefined,
  planned: readonly { entry: CatalogModel; providerConfig: Pick<CatalogProvider, 'kind' | 'baseUrl'> }[],
): PromptLayout {
  const first = planned[0];
  if (override !== undefined) return override;
  if (first === undefined) return 'system';
  return first.entry.promptLayout ?? defaultLayout(first.providerConfig);
}
