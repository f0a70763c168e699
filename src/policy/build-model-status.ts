import type { ConsoleCircuit, ModelStatus, ModelStatusList } from '../contracts/admin-models';
import { type DiscoveryHealth, observedSpeedOf } from './build-discovery';
import type { Catalog, CatalogProvider } from './catalog';

// The console's view of every catalog model (GET /v1/admin/models). Pure: the catalog, who is
// configured and a health snapshot in, one row per model out, in catalog order.

type Summary = DiscoveryHealth['models'][string] & { retryAt?: number };

/** A snapshot of shared health, as the ModelHealth object answers it. */
export interface HealthReading {
  at: number;
  models: Record<string, Summary>;
}

interface CircuitView {
  circuit: ConsoleCircuit;
  retryAt: number | null;
}

/**
 * Where one circuit stands for a person: an open circuit whose cooldown has passed is probing, whether
 * its single probe is waiting for a request (half_open) or already out (still open, past `retryAt`).
 */
export function consoleCircuitOf(summary: Summary | undefined, now: number): CircuitView {
  if (summary === undefined || summary.circuit === 'closed') return { circuit: 'closed', retryAt: null };
  if (summary.circuit === 'half_open') return { circuit: 'probing', retryAt: null };
  if (summary.retryAt !== undefined && summary.retryAt <= now) return { circuit: 'probing', retryAt: null };
  return { circuit: 'open', retryAt: summary.retryAt ?? null };
}

const severity: Record<ConsoleCircuit, number> = { closed: 0, probing: 1, open: 2 };

export function buildModelStatus(input: {
  catalog: Catalog;
  notConfigured: (provider: CatalogProvider) => string | undefined;
  health: HealthReading;
}): ModelStatusList {
  const { catalog, health } = input;
  const now = health.at;
  const providers = new Map(catalog.providers.map((provider) => [provider.id, provider]));
  const models = catalog.models.flatMap((entry): ModelStatus[] => {
    const provider = providers.get(entry.provider);
    if (provider === undefined) return [];
    const reason = input.notConfigured(provider);
    const observed = health.models[`${provider.id}/${entry.model}`];
    const own = consoleCircuitOf(observed, now);
    const whole = consoleCircuitOf(health.models[`${provider.id}/*`], now);
    // The provider's circuit stands in front of each of its models; the worse of the two is shown.
    const providerWins = severity[whole.circuit] >= severity[own.circuit] && whole.circuit !== 'closed';
    const circuit = providerWins ? whole : own;
    return [
      {
        provider: provider.id,
        kind: provider.kind,
        model: entry.model,
        configured: reason === undefined,
        ...(reason === undefined ? {} : { notConfiguredReason: reason }),
        simulated: provider.kind === 'sim',
        regions: entry.regions,
        priceUsdPerMTok: entry.priceUsdPerMTok,
        latency: {
          catalog: entry.latency,
          observed: observedSpeedOf(observed),
        },
        health: {
          ...circuit,
          circuitScope: providerWins ? 'provider' : 'model',
          samples: observed?.samples ?? 0,
          errorRate: observed?.errorRate ?? 0,
          ...(observed?.lastErrorKind ? { lastErrorKind: observed.lastErrorKind } : {}),
        },
      },
    ];
  });
  return { at: now, models };
}
