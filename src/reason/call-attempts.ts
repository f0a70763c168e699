import type { Decision } from '../contracts/reason-response';
import { ApiError } from '../errors';
import { costOf } from '../policy/cost-of';
import type { Plan, PlannedAttempt } from '../policy/plan-request';
import { readModelError } from '../providers/model-error';
import { adapterFor } from '../providers/registry';
import type { ModelRequest, ModelResponse } from '../providers/types';

export interface AttemptDeps {
  secret: (name: string) => string | undefined;
  fetch: typeof fetch;
  now: () => number;
  /** When the request arrived; maxLatencyMs counts from here. */
  startedAt: number;
  maxLatencyMs?: number;
  maxCostUsd?: number;
}

export interface AttemptsResult {
  response: ModelResponse;
  attempt: PlannedAttempt;
  attempts: Decision['attempts'];
  costUsd: number;
}

/** Calls the planned models in order, failing over on errors, within one budget of cost and time. */
export async function callAttempts(
  plan: Plan,
  request: ModelRequest,
  deps: AttemptDeps,
): Promise<AttemptsResult> {
  const attempts: Decision['attempts'] = [];
  let spent = 0;
  let lastError: ApiError | undefined;
  for (const attempt of plan.attempts) {
    const adapter = adapterFor(attempt.providerConfig.kind);
    if (!adapter) continue;
    const left =
      deps.maxLatencyMs === undefined ? 600_000 : deps.maxLatencyMs - (deps.now() - deps.startedAt);
    if (left <= 0) break;
    if (deps.maxCostUsd !== undefined && spent + attempt.estCostUsd > deps.maxCostUsd) continue;
    const began = deps.now();
    try {
      const response = await adapter.generate(
        { ...request, settings: { ...request.settings, max_tokens: attempt.maxTokens } },
        {
          model: attempt.model,
          signal: AbortSignal.timeout(left),
          fetch: deps.fetch,
          apiKey: attempt.providerConfig.apiKeyEnv
            ? deps.secret(attempt.providerConfig.apiKeyEnv)
            : undefined,
          baseUrl: attempt.providerConfig.baseUrl,
          config: attempt.entry.simulate,
        },
      );
      const costUsd = costOf(response.usage, attempt.entry);
      spent += costUsd;
      attempts.push({
        provider: attempt.provider,
        model: attempt.model,
        outcome: 'ok',
        latencyMs: deps.now() - began,
        costUsd,
      });
      return { response, attempt, attempts, costUsd: spent };
    } catch (error) {
      const modelError = readModelError(error);
      if (!modelError) throw error;
      lastError = error as ApiError;
      attempts.push({
        provider: attempt.provider,
        model: attempt.model,
        outcome: 'error',
        errorKind: modelError.kind,
        latencyMs: deps.now() - began,
        costUsd: 0,
      });
    }
  }
  const details = { ...(lastError?.details ?? {}), attempts };
  if (lastError) throw new ApiError(lastError.code, lastError.message, { details });
  throw new ApiError(
    'policy.budget_exhausted',
    'The request’s budget was used up before any model answered.',
    {
      details,
    },
  );
}
