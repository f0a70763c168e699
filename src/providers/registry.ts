import type { ModelAdapter } from '../model/model-adapter';
import type { ProviderKind } from '../model/provider-kind';
import { anthropicAdapter } from './anthropic/anthropic-adapter';
import { geminiAdapter } from './gemini/gemini-adapter';
import { modelFailure } from './model-error';
import { openaiAdapter } from './openai/openai-adapter';
import { simAdapter } from './sim/sim-adapter';
import { workersAiAdapter } from './workers-ai/workers-ai-adapter';

/** Every adapter by catalog `kind`. Tests walk this registry, so an adapter added here is covered. */
export const adapters: Partial<Record<ProviderKind, ModelAdapter>> = {
  sim: simAdapter,
  openai: openaiAdapter,
  anthropic: anthropicAdapter,
  gemini: geminiAdapter,
  'workers-ai': workersAiAdapter,
};

/**
 * The adapter for a planned attempt's provider kind; a kind with no adapter installed is a classified
 * `not_found` failure before anything is sent, so the attempt loop fails over like for any other.
 */
export function adapterFor(attempt: {
  provider: string;
  model: string;
  providerConfig: { kind: ProviderKind };
}): ModelAdapter {
  const adapter = adapters[attempt.providerConfig.kind];
  if (adapter) return adapter;
  throw modelFailure({
    kind: 'not_found',
    message: `No adapter for provider kind ${attempt.providerConfig.kind} is installed.`,
    provider: attempt.provider,
    model: attempt.model,
    dispatch: 'not_sent',
  });
}
