import type { CallOptions, WorkersAiBinding } from '../model/model-adapter';
import type { ModelRequest } from '../model/model-request';
import type { CatalogModel, CatalogProvider } from '../policy/catalog';
import type { ReasonDeps } from './prepare-reason';
import { replayableReasoning } from './replayable-reasoning';
import type { AttemptInput } from './run-attempts';

function isWorkersAi(value: unknown): value is WorkersAiBinding {
  return (
    typeof value === 'object' && value !== null && typeof (value as { run?: unknown }).run === 'function'
  );
}

/** The Workers AI binding a `workers-ai` provider uses: the one its catalog entry names, else `AI`. */
export function aiBindingOf(
  provider: CatalogProvider,
  binding: ((name: string) => unknown) | undefined,
): WorkersAiBinding | undefined {
  if (provider.kind !== 'workers-ai' || !binding) return undefined;
  const value = binding(provider.binding ?? 'AI');
  return isWorkersAi(value) ? value : undefined;
}

/** The request for one attempt: JSON output by the model's own means, as its catalog entry says. */
export function forModel(request: ModelRequest, entry: CatalogModel): ModelRequest {
  if (!request.output) return request;
  return {
    ...request,
    output: { ...request.output, strategy: entry.capabilities.json === 'tool' ? 'tool' : 'native' },
  };
}

/**
 * The model request one attempt sends: the model's JSON strategy, the attempt's `max_tokens`, and its
 * thinking as resolved for its model (the caller's ask replaced by what this model is told), and the
 * conversation's reasoning only where this model produced it.
 */
export function attemptRequest(request: ModelRequest, input: AttemptInput): ModelRequest {
  const { reasoning: _ask, ...settings } = request.settings ?? {};
  const { attempt } = input;
  return {
    ...forModel(request, attempt.entry),
    messages: replayableReasoning(request.messages, { provider: attempt.provider, model: attempt.model }),
    settings: {
      ...settings,
      max_tokens: input.maxTokens,
      ...(input.reasoning && { reasoning: input.reasoning }),
    },
  };
}

/**
 * The options of one attempt's call, the same for JSON and streams: the provider's key, base URL,
 * extra headers and binding, the simulator's script, and the idle limit the loop set for the attempt
 * (policy/stall-limit).
 */
export function callOptionsOf(
  input: AttemptInput,
  deps: Pick<ReasonDeps, 'secret' | 'fetch' | 'binding'>,
  signal: AbortSignal = input.signal,
): CallOptions {
  const { attempt } = input;
  const provider = attempt.providerConfig;
  return {
    model: attempt.model,
    signal,
    fetch: deps.fetch,
    apiKey: provider.apiKeyEnv ? deps.secret(provider.apiKeyEnv) : undefined,
    baseUrl: provider.baseUrl,
    headers: provider.headers,
    ai: aiBindingOf(provider, deps.binding),
    idleTimeoutMs: input.idleTimeoutMs,
    config: attempt.entry.simulate,
    reasoning: attempt.entry.capabilities.reasoning,
  };
}
