import type { MediaModality } from '../contracts/media-part';
import type { PrivacyLevel } from '../contracts/reason-request';
import type { MediaPricing } from '../media/pricing-basis';
import type { MediaSourceNeed } from '../media/read-media';
import type { ReasoningSetting } from '../model/model-request';
import type { CatalogModel, CatalogProvider } from './catalog';

// The shapes the planner works with. Pure data: no I/O, no Hono.

export type Prefer = 'quality' | 'cost' | 'speed';

export const exclusionReasons = [
  'pinned',
  'region',
  'privacy',
  'capability',
  'context_window',
  'cost',
  'latency',
  'circuit_open',
  'not_configured',
  'modality_unsupported',
] as const;
export type ExclusionReason = (typeof exclusionReasons)[number];

export interface Exclusion {
  provider: string;
  model: string;
  reason: ExclusionReason;
  detail: string;
}

/** What the request needs of a model, derived once before planning. */
export interface Needs {
  tools: boolean;
  /** The request makes the model call a tool (`toolChoice` `required` or a named tool). */
  forcedToolCall?: boolean;
  json: boolean;
  privacy: PrivacyLevel;
  /** A conservative estimate (model/estimate-tokens): it may be high, never low. */
  inputTokens: number;
  /**
   * The part of `inputTokens` that is media priced at the most a provider accepts (a URL, a file id, a
   * file that cannot be read): its real size is unknown, so it counts toward cost, never toward whether
   * the request fits a window. A provider bills no more input than its window holds.
   */
  unboundedTokens?: number;
  /** The caller's `maxOutputTokens`, when given. */
  maxOutputTokens?: number;
  /** What the request's media need of a model; absent when it carries none. */
  media?: MediaNeeds;
  /** The caller's `reasoning`, in the model interface's names; absent when it says nothing. */
  reasoning?: ReasoningSetting;
  /**
   * The request marks prompt-cache breakpoints (`cache`): a provider may bill its input as written to
   * the cache, so the worst case prices input at the cache-write price where that is higher.
   */
  cacheWrites?: boolean;
}

/** Each modality the request's media carry, and each way a part is sourced (media/read-media). */
export interface MediaNeeds {
  modalities: MediaModality[];
  sources: MediaSourceNeed[];
  /** How each part was priced before the call, in request order (`decision.media`). */
  priced?: MediaPricing[];
}

/** A model's speed: from the catalog, replaced by observed health once there are enough observations. */
export interface Speed {
  ttftMsP50: number;
  ttftMsP90: number;
  outputTokensPerSec: number;
  source: 'catalog' | 'observed';
}

/** What is left of the request's one budget. `Infinity` when the caller set no limit. */
export interface Left {
  costUsd: number;
  timeMs: number;
}

export interface PlannedAttempt {
  provider: string;
  model: string;
  region: string;
  /** Expected cost: the input estimate plus the wanted output at the model's prices. */
  estCostUsd: number;
  /** Expected latency: p50 time to first token plus the wanted output at the model's speed. */
  estLatencyMs: number;
  /** `max_tokens` for the call, as planned with the whole budget; recomputed before each attempt. */
  maxTokens: number;
  /** The most this attempt can cost with `maxTokens` of output. */
  worstCaseUsd: number;
  speed: Speed;
  /** The model's circuit is half-open: this attempt is the single probe, if no other request took it. */
  probe: boolean;
  entry: CatalogModel;
  providerConfig: CatalogProvider;
}

export interface Plan {
  prefer: Prefer;
  needs: Needs;
  attempts: PlannedAttempt[];
  excluded: Exclusion[];
}

export type CircuitState = 'closed' | 'open' | 'half_open';

/** What the planner reads of shared model health; see src/health/. */
export interface HealthView {
  circuit(provider: string, model: string): CircuitState;
  /**
   * How long until an open circuit in front of the model (its own or its provider's) lets a probe
   * through, in ms; undefined when none is open or the time is not known.
   */
  retryInMs?(provider: string, model: string): number | undefined;
  /** Observed first-token times (and output speed when streaming measured it), once there are enough samples. */
  observedSpeed(
    provider: string,
    model: string,
  ): { ttftMsP50: number; ttftMsP90: number; outputTokensPerSec?: number } | undefined;
}

export const noHealth: HealthView = {
  circuit: () => 'closed',
  observedSpeed: () => undefined,
};
