import type { ProviderKind } from '../policy/catalog';
import { anthropicAdapter } from './anthropic/anthropic-adapter';
import { geminiAdapter } from './gemini/gemini-adapter';
import { openaiAdapter } from './openai/openai-adapter';
import { simAdapter } from './sim/sim-adapter';
import type { ModelAdapter } from './types';
import { workersAiAdapter } from './workers-ai/workers-ai-adapter';

/** Every adapter by catalog `kind`. Tests walk this registry, so an adapter added here is covered. */
export const adapters: Partial<Record<ProviderKind, ModelAdapter>> = {
  sim: simAdapter,
  openai: openaiAdapter,
  anthropic: anthropicAdapter,
  gemini: geminiAdapter,
  'workers-ai': workersAiAdapter,
};

export function adapterFor(kind: ProviderKind): ModelAdapter | undefined {
  return adapters[kind];
}
