import type { CatalogModel } from './catalog';
import type { HealthView, Speed } from './plan-types';

const catalogSpeeds = new WeakMap<CatalogModel, Speed>();

/**
 * The model's speed: observed health when there are enough observations, else the catalog's. An
 * observed output speed that is not a positive number (a shared health record from before its guard)
 * is no measurement: the catalog's stands in, so no estimate divides by 0.
 */
export function speedOf(entry: CatalogModel, health: HealthView): Speed {
  const observed = health.observedSpeed(entry.provider, entry.model);
  if (observed) {
    const tps = observed.outputTokensPerSec;
    return {
      ttftMsP50: observed.ttftMsP50,
      ttftMsP90: observed.ttftMsP90,
      outputTokensPerSec:
        tps !== undefined && Number.isFinite(tps) && tps > 0 ? tps : entry.latency.outputTokensPerSec,
      source: 'observed',
    };
  }
  let speed = catalogSpeeds.get(entry);
  if (!speed) {
    speed = { ...entry.latency, source: 'catalog' };
    catalogSpeeds.set(entry, speed);
  }
  return speed;
}
