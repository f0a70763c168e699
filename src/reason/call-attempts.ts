import type { Budget } from '../policy/budget';
import { costOf } from '../policy/cost-of';
import type { Plan } from '../policy/plan-types';
import { modelFailure } from '../providers/model-error';
import { adapterFor } from '../providers/registry';
import type { ModelRequest, ModelResponse } from '../providers/types';
import { forModel } from './check-output';
import { type AttemptsOutcome, type LoopDeps, runAttempts } from './run-attempts';

export interface CallDeps extends LoopDeps {
  secret: (name: string) => string | undefined;
  fetch: typeof fetch;
}

/**
 * Calls the planned models for a JSON (non-streaming) answer: the attempt loop of run-attempts.ts
 * with an adapter's `generate` as the attempt. Streaming reuses the same loop with its own attempt.
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
    async ({ attempt, maxTokens, signal }) => {
      const adapter = adapterFor(attempt.providerConfig.kind);
      if (!adapter) {
        throw modelFailure({
          kind: 'not_found',
          message: `No adapter for provider kind ${attempt.providerConfig.kind} is installed.`,
          provider: attempt.provider,
          model: attempt.model,
          dispatch: 'not_sent',
        });
      }
      const response = await adapter.generate(
        { ...forModel(request, attempt.entry), settings: { ...request.settings, max_tokens: maxTokens } },
        {
          model: attempt.model,
          signal,
          fetch: deps.fetch,
          apiKey: attempt.providerConfig.apiKeyEnv
            ? deps.secret(attempt.providerConfig.apiKeyEnv)
            : undefined,
          baseUrl: attempt.providerConfig.baseUrl,
          config: attempt.entry.simulate,
        },
      );
      return { value: response, usage: response.usage, costUsd: costOf(response.usage, attempt.entry) };
    },
    deps,
  );
}
