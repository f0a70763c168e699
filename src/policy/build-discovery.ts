import type { Discovery } from '../contracts/discovery';
import type { ModelErrorKind } from '../model/model-error';
import type { Catalog, CatalogModel, CatalogProvider } from './catalog';
import type { CircuitState } from './plan-types';

/** What discovery shows of live health, per `provider/model` key (and `provider/*` for a provider's circuit). */
type ObservedHealth = DiscoveryHealth['models'][string];

/** A model's observed speed as discovery and the console show it; null before any first token was timed. */
export function observedSpeedOf(observed: ObservedHealth | undefined) {
  if (observed?.ttftMsP50 === undefined) return null;
  return {
    ttftMsP50: observed.ttftMsP50,
    ttftMsP90: observed.ttftMsP90 ?? observed.ttftMsP50,
    ...(observed.outputTokensPerSec === undefined ? {} : { outputTokensPerSec: observed.outputTokensPerSec }),
  };
}

export interface DiscoveryHealth {
  models: Record<
    string,
    {
      circuit: CircuitState;
      samples: number;
      errorRate: number;
      lastErrorKind?: ModelErrorKind;
      ttftMsP50?: number;
      ttftMsP90?: number;
      outputTokensPerSec?: number;
    }
  >;
}

function level(supported: boolean): 'full' | 'none' {
  return supported ? 'full' : 'none';
}

function capabilitiesOf(
  entry: CatalogModel,
  kind: CatalogProvider['kind'],
): Discovery['providers'][number]['models'][number]['capabilities'] {
  const { capabilities } = entry;
  return {
    toolCalling: level(capabilities.tools),
    // Valve's simulator answers with one call at most; real providers may call several at once.
    parallelToolCalls: capabilities.tools && kind !== 'sim' ? 'full' : 'none',
    reasoning: level(capabilities.reasoning),
    multimodalInput: level((entry.inputModalities ?? ['text']).length > 1),
    // Native structured output is full support; JSON through a forced tool call is partial.
    structuredOutput:
      capabilities.json === 'native' ? 'full' : capabilities.json === 'tool' ? 'partial' : 'none',
    inputModalities: entry.inputModalities ?? ['text'],
    outputModalities: ['text'],
  };
}

/** The discovery document of GET /v1/models: the catalog, who is configured, and live health. Pure. */
export function buildDiscovery(input: {
  catalog: Catalog;
  notConfigured: (provider: CatalogProvider) => string | undefined;
  health: DiscoveryHealth | undefined;
  version: string;
}): Discovery {
  const { catalog, health } = input;
  return {
    schemaVersion: 'v1',
    protocolVersion: input.version,
    schemaUrl: 'https://valve.dev/schemas/discovery.schema.json',
    providers: catalog.providers.map((provider) => {
      const reason = input.notConfigured(provider);
      const providerHealth = health?.models[`${provider.id}/*`];
      return {
        provider: provider.id,
        kind: provider.kind,
        configured: reason === undefined,
        ...(reason === undefined ? {} : { notConfiguredReason: reason }),
        models: catalog.models
          .filter((entry) => entry.provider === provider.id)
          .map((entry) => {
            const observed = health?.models[`${provider.id}/${entry.model}`];
            const circuit = providerHealth?.circuit === 'open' ? 'open' : (observed?.circuit ?? 'closed');
            return {
              model: entry.model,
              capabilities: capabilitiesOf(entry, provider.kind),
              ...(entry.reasoning && { reasoning: entry.reasoning }),
              regions: entry.regions,
              priceUsdPerMTok: entry.priceUsdPerMTok,
              contextTokens: entry.contextTokens,
              maxOutputTokens: entry.maxOutputTokens,
              maxPrivacy: entry.maxPrivacy,
              quality: entry.quality,
              simulated: provider.kind === 'sim',
              latency: {
                catalog: entry.latency,
                observed: observedSpeedOf(observed),
              },
              health: {
                circuit,
                samples: observed?.samples ?? 0,
                errorRate: observed?.errorRate ?? 0,
                ...(observed?.lastErrorKind ? { lastErrorKind: observed.lastErrorKind } : {}),
              },
              ...(entry.source ? { source: entry.source } : {}),
            };
          }),
      };
    }),
  };
}
