import type { ModelErrorKind } from '../model/model-error';
import type { CircuitState } from '../policy/plan-types';

/** One attempt's outcome, recorded off the response path. */
export interface Observation {
  provider: string;
  model: string;
  ok: boolean;
  errorKind?: ModelErrorKind;
  /** Time to first token (streaming), or inferred from the whole call and the model's speed. */
  ttftMs?: number;
  /** Measured only when streaming gives a first-token time. */
  outputTokensPerSec?: number;
  /** auth, permission, quota_exhausted, not_found: open the provider's circuit, not only the model's. */
  openProviderCircuit?: boolean;
}

/** The state kept per `provider/model` key (and `provider/*` for a provider's circuit). */
export interface HealthRecord {
  samples: number;
  ttftMean?: number;
  ttftVar?: number;
  tpsMean?: number;
  /** Exponentially weighted share of calls that failed. */
  errorRate: number;
  consecutiveFailures: number;
  lastErrorKind?: ModelErrorKind;
  openedAt?: number;
  /** When the single probe of a half-open circuit was handed out. */
  probeAt?: number;
  updatedAt: number;
}

/** What a reader sees of one key. */
export interface HealthSummary {
  circuit: CircuitState;
  /** When an open circuit lets a probe through. */
  retryAt?: number;
  samples: number;
  errorRate: number;
  lastErrorKind?: ModelErrorKind;
  ttftMsP50?: number;
  ttftMsP90?: number;
  outputTokensPerSec?: number;
}

export interface HealthSnapshot {
  at: number;
  models: Record<string, HealthSummary>;
}

export function healthKey(provider: string, model: string): string {
  return `${provider}/${model}`;
}
