import type { CatalogModel } from './catalog';
import type { HealthView, Speed } from './plan-types';

const catalogSpeeds = new WeakMap<CatalogModel, Speed>();

/** The model's speed: observed health when there are enough observations, else the catalog's. */
export function speedOf(entry: CatalogModel, health: HealthView): Speed {
  const observed = health.observedSpeed(entry.provider, entry.model);
  if (observed) {
    return {
      ttftMsP50: observed.ttftMsP50,
      ttftMsP90: observed.ttftMsP90,
      outputTokensPerSec: observed.outputTokensPerSec ?? entry.latency.outputTokensPerSec,
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
