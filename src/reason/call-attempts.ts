import type { WorkersAiBinding } from '../model/model-adapter';
import type { ModelRequest } from '../model/model-request';
import type { ModelResponse } from '../model/model-response';
import type { Budget } from '../policy/budget';
import type { CatalogProvider } from '../policy/catalog';
import { costOf } from '../policy/cost-of';
import type { Plan } from '../policy/plan-types';
import { expectedSilenceMs, stallLimitMs } from '../policy/stall-limit';
import { adapterFor } from '../providers/registry';
import { forModel } from './check-output';
import type { ReasonDeps } from './prepare-reason';
import { type AttemptsOutcome, type LoopDeps, runAttempts } from './run-attempts';

export interface CallDeps extends LoopDeps {
  secret: (name: string) => string | undefined;
  fetch: typeof fetch;
  /** A binding of the Worker by name (Workers AI: `AI`), or undefined when it has none. */
  binding?: (name: string) => unknown;
}

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

/**
 * Calls the planned models for a JSON (non-streaming) answer: the attempt loop of run-attempts.ts
 * with an adapter's `generate` as the attempt. Streaming reuses the same loop with its own attempt.
 * Each call gets the provider's key, base URL, extra headers and binding, and an idle limit
 * (policy/stall-limit): a JSON answer arrives in one piece, so its first byte may take as long as
 * writing `maxTokens` at the model's p90 speed, and no longer than the stall limit allows.
 */
export function callAttempts(
  plan: Plan,
  budget: Budget,
  request: ModelRequest,
  deps: CallDeps,
): Promise<AttemptsOutcome<ModelResponse>> {
  return runAttempts(
    plan,
    budget,
    async ({ attempt, maxTokens, signal, timeLeftMs, reserveMs }) => {
      const adapter = adapterFor(attempt);
      const provider = attempt.providerConfig;
      const response = await adapter.generate(
        { ...forModel(request, attempt.entry), settings: { ...request.settings, max_tokens: maxTokens } },
        {
          model: attempt.model,
          signal,
          fetch: deps.fetch,
          apiKey: provider.apiKeyEnv ? deps.secret(provider.apiKeyEnv) : undefined,
          baseUrl: provider.baseUrl,
          headers: provider.headers,
          ai: aiBindingOf(provider, deps.binding),
          idleTimeoutMs: stallLimitMs({
            expectedMs: expectedSilenceMs(attempt.speed, maxTokens, false),
            timeLeftMs,
            reserveMs,
          }),
          config: attempt.entry.simulate,
        },
      );
      return { value: response, usage: response.usage, costUsd: costOf(response.usage, attempt.entry) };
    },
    deps,
  );
}

/** The loop's dependencies out of the pipeline's. */
export function callDepsOf(deps: ReasonDeps): CallDeps {
  return {
    secret: deps.secret,
    binding: deps.binding,
    fetch: deps.fetch,
    now: deps.now,
    sleep: deps.sleep,
    random: deps.random,
    claimProbe: deps.claimProbe,
    observe: deps.observe,
  };
}
