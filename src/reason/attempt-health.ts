import type { Observation } from '../health/health-types';
import type { ModelError } from '../model/model-error';
import type { RetryDecision } from '../policy/decide-retry';
import type { PlannedAttempt } from '../policy/plan-types';
import type { AttemptResult } from './attempt-types';
import type { PlannedTry } from './plan-attempt';

// What an attempt's outcome tells shared health (health/) about its model. Pure.

/** An answer's observation: its time to first token, and its speed when it streamed and wrote. */
export function answerObservation(
  attempt: PlannedAttempt,
  result: AttemptResult<unknown>,
  latencyMs: number,
): Observation {
  const generationMs = (result.usage.output_tokens / attempt.speed.outputTokensPerSec) * 1000;
  return {
    provider: attempt.provider,
    model: attempt.model,
    ok: true,
    ttftMs: result.ttftMs ?? Math.max(0, latencyMs - generationMs),
    // Only an attempt that wrote something measures a speed: 0 tokens over any time is not one.
    outputTokensPerSec:
      result.ttftMs !== undefined && latencyMs > result.ttftMs && result.usage.output_tokens > 0
        ? (result.usage.output_tokens / (latencyMs - result.ttftMs)) * 1000
        : undefined,
  };
}

/**
 * A failure's observation, or undefined when the failure says nothing about the model: a timeout set
 * by this caller's deadline (or by the room a fallback needs) must not let one tenant's tight
 * maxLatencyMs open a circuit for every tenant. `timedOut`: the attempt's own deadline went off.
 */
export function failureObservation(
  planned: PlannedTry,
  error: ModelError,
  timedOut: boolean,
  decision: RetryDecision,
): Observation | undefined {
  // A timeout the provider itself answered (408, 504, its own deadline error) carries a status.
  const valvesClock = error.kind === 'timeout' && error.status === undefined;
  const callersClock =
    valvesClock && (timedOut ? planned.timeLeftMs <= planned.attemptMs : planned.idle.bound !== 'stall');
  if (callersClock) return undefined;
  return {
    provider: planned.attempt.provider,
    model: planned.attempt.model,
    ok: false,
    errorKind: error.kind,
    openProviderCircuit: decision.action === 'failover' && decision.openProviderCircuit === true,
  };
}
