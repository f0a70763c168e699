import type { ModelPolicy, PrivacyLevel } from '../contracts/reason-request';
import { privacyLevels } from '../contracts/reason-request';
import type { Catalog, CatalogModel, CatalogProvider } from './catalog';

export type Prefer = 'quality' | 'cost' | 'speed';

export type ExclusionReason =
  | 'pinned'
  | 'region'
  | 'privacy'
  | 'capability'
  | 'context_window'
  | 'cost'
  | 'latency'
  | 'circuit_open'
  | 'not_configured';

export interface Exclusion {
  provider: string;
  model: string;
  reason: ExclusionReason;
  detail: string;
}

export interface PlannedAttempt {
  provider: string;
  model: string;
  region: string;
  estCostUsd: number;
  estLatencyMs: number;
  maxTokens: number;
  entry: CatalogModel;
  providerConfig: CatalogProvider;
}

export interface Plan {
  prefer: Prefer;
  attempts: PlannedAttempt[];
  excluded: Exclusion[];
}

/** What the request needs of a model, derived once before planning. */
export interface Needs {
  tools: boolean;
  json: boolean;
  privacy: PrivacyLevel;
  inputTokens: number;
  outputTokens: number;
}

export interface PlanInput {
  policy: ModelPolicy;
  needs: Needs;
  catalog: Catalog;
  isConfigured: (provider: CatalogProvider) => boolean;
}

const defaultOutputTokens = 1024;

function rankOf(level: PrivacyLevel): number {
  return privacyLevels.indexOf(level);
}

function estimate(entry: CatalogModel, needs: Needs) {
  const outputTokens = Math.min(needs.outputTokens, entry.maxOutputTokens);
  const estCostUsd =
    (needs.inputTokens * entry.priceUsdPerMTok.input + outputTokens * entry.priceUsdPerMTok.output) / 1e6;
  const estLatencyMs = entry.latency.ttftMsP50 + (outputTokens / entry.latency.outputTokensPerSec) * 1000;
  return { outputTokens, estCostUsd, estLatencyMs };
}

/** Turns the caller's policy into an ordered plan of attempts and the reason for every exclusion. Pure. */
export function planRequest(input: PlanInput): Plan {
  const { policy, needs, catalog } = input;
  const prefer = policy.prefer ?? 'quality';
  const providers = new Map(catalog.providers.map((provider) => [provider.id, provider]));
  const attempts: PlannedAttempt[] = [];
  const excluded: Exclusion[] = [];

  for (const entry of catalog.models) {
    const exclude = (reason: ExclusionReason, detail: string) =>
      excluded.push({ provider: entry.provider, model: entry.model, reason, detail });
    const providerConfig = providers.get(entry.provider);
    const isPinned = policy.pinned?.provider === entry.provider && policy.pinned.model === entry.model;
    if (!providerConfig || !input.isConfigured(providerConfig)) {
      exclude('not_configured', `provider ${entry.provider} has no key configured`);
      continue;
    }
    if (policy.pinned && policy.allowFallback === false && !isPinned) {
      exclude('pinned', `not the pinned model and allowFallback is false`);
      continue;
    }
    const region = policy.regions ? entry.regions.find((r) => policy.regions?.includes(r)) : entry.regions[0];
    if (region === undefined) {
      exclude('region', `serves ${entry.regions.join(', ')} only`);
      continue;
    }
    if (rankOf(needs.privacy) > rankOf(entry.maxPrivacy)) {
      exclude('privacy', `allowed up to ${entry.maxPrivacy}, the context is ${needs.privacy}`);
      continue;
    }
    if (needs.tools && !entry.capabilities.tools) {
      exclude('capability', 'does not support tools');
      continue;
    }
    if (needs.json && entry.capabilities.json === 'none') {
      exclude('capability', 'does not support JSON output');
      continue;
    }
    const { outputTokens, estCostUsd, estLatencyMs } = estimate(entry, needs);
    if (needs.inputTokens + outputTokens > entry.contextTokens) {
      exclude('context_window', `about ${needs.inputTokens} input tokens do not fit ${entry.contextTokens}`);
      continue;
    }
    attempts.push({
      provider: entry.provider,
      model: entry.model,
      region,
      estCostUsd,
      estLatencyMs,
      maxTokens: outputTokens,
      entry,
      providerConfig,
    });
  }

  const compare: Record<Prefer, (a: PlannedAttempt, b: PlannedAttempt) => number> = {
    quality: (a, b) => b.entry.quality - a.entry.quality || a.estCostUsd - b.estCostUsd,
    cost: (a, b) => a.estCostUsd - b.estCostUsd || b.entry.quality - a.entry.quality,
    speed: (a, b) => a.estLatencyMs - b.estLatencyMs || b.entry.quality - a.entry.quality,
  };
  attempts.sort(compare[prefer]);
  const pinnedIndex = attempts.findIndex(
    (a) => a.provider === policy.pinned?.provider && a.model === policy.pinned.model,
  );
  if (pinnedIndex > 0) attempts.unshift(...attempts.splice(pinnedIndex, 1));
  const planned = policy.allowFallback === false ? attempts.slice(0, 1) : attempts;
  return { prefer, attempts: planned, excluded };
}

export { defaultOutputTokens };
