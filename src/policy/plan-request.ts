import type { ModelPolicy } from '../contracts/reason-request';
import { attemptLimits } from './attempt-limits';
import type { Catalog, CatalogProvider } from './catalog';
import { checkEligibility } from './check-eligibility';
import type { Exclusion, HealthView, Left, Needs, Plan, PlannedAttempt } from './plan-types';
import { noHealth } from './plan-types';
import { rankAttempts } from './rank-attempts';
import { speedOf } from './speed-of';

export interface PlanInput {
  policy: ModelPolicy;
  needs: Needs;
  catalog: Catalog;
  /** Why a provider cannot be used here, or undefined when it can (see configuredProviders). */
  notConfigured: (provider: CatalogProvider) => string | undefined;
  health?: HealthView;
  /** What is left of the budget when planning; the whole of it at the start of a request. */
  left: Left;
}

/**
 * Turns the caller's policy into an ordered plan of attempts, each with its own limits inside the one
 * budget, and the reason for every model left out. Pure: the catalog, configuration and a health
 * snapshot in; the plan and its trace out.
 */
export function planRequest(input: PlanInput): Plan {
  const { policy, needs, catalog, left } = input;
  const health = input.health ?? noHealth;
  const prefer = policy.prefer ?? 'quality';
  const providers = new Map(catalog.providers.map((provider) => [provider.id, provider]));
  const eligible: PlannedAttempt[] = [];
  const excluded: Exclusion[] = [];

  for (const entry of catalog.models) {
    const providerConfig = providers.get(entry.provider) as CatalogProvider;
    const notConfiguredDetail = input.notConfigured(providerConfig);
    const providerCircuit = health.circuit(entry.provider, '*');
    const modelCircuit = health.circuit(entry.provider, entry.model);
    const circuit = providerCircuit === 'open' || modelCircuit === 'open' ? 'open' : modelCircuit;
    const eligibility = checkEligibility(entry, {
      policy,
      needs,
      configured: notConfiguredDetail === undefined,
      notConfiguredDetail: notConfiguredDetail ?? '',
      circuit,
      kind: providerConfig.kind,
    });
    if (!eligibility.ok) {
      excluded.push(eligibility.exclusion);
      continue;
    }
    const speed = speedOf(entry, health);
    const limits = attemptLimits(entry, needs, left, speed);
    if (!limits.ok) {
      excluded.push({
        provider: entry.provider,
        model: entry.model,
        reason: limits.reason,
        detail: limits.detail,
      });
      continue;
    }
    eligible.push({
      provider: entry.provider,
      model: entry.model,
      region: eligibility.region,
      estCostUsd: limits.estCostUsd,
      estLatencyMs: limits.estLatencyMs,
      maxTokens: limits.maxTokens,
      worstCaseUsd: limits.worstCaseUsd,
      speed,
      probe: circuit === 'half_open' || providerCircuit === 'half_open',
      entry,
      providerConfig,
    });
  }

  const attempts = rankAttempts(eligible, prefer, policy.pinned, policy.allowFallback !== false);
  return { prefer, needs, attempts, excluded };
}
