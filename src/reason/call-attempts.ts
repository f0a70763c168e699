import type { ModelRequest } from '../model/model-request';
import type { ModelResponse } from '../model/model-response';
import type { Budget } from '../policy/budget';
import { costOf } from '../policy/cost-of';
import type { Plan } from '../policy/plan-types';
import { adapterFor } from '../providers/registry';
import { attemptRequest, callOptionsOf } from './call-options';
import type { ReasonDeps } from './prepare-reason';
import { type AttemptsOutcome, runAttempts } from './run-attempts';

/**
 * Calls the planned models for a JSON (non-streaming) answer: the attempt loop of run-attempts.ts
 * with an adapter's `generate` as the attempt. Streaming reuses the same loop with its own attempt.
 */
export function callAttempts(
  plan: Plan,
  budget: Budget,
  request: ModelRequest,
  deps: ReasonDeps,
): Promise<AttemptsOutcome<ModelResponse>> {
  return runAttempts(
    plan,
    budget,
    async (input) => {
      const response = await adapterFor(input.attempt).generate(
        attemptRequest(request, input),
        callOptionsOf(input, deps),
      );
      return { value: response, usage: response.usage, costUsd: costOf(response.usage, input.attempt.entry) };
    },
    deps,
  );
}
