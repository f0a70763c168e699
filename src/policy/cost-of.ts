import type { Usage } from '../model/model-response';
import type { CatalogModel } from './catalog';

/** What a call cost at the catalog's prices; cached input is billed at the cache-read price when listed. */
export function costOf(usage: Usage, entry: CatalogModel): number {
  const price = entry.priceUsdPerMTok;
  const cached = Math.min(usage.cache_read_tokens ?? 0, usage.input_tokens);
  const fresh = usage.input_tokens - cached;
  return (
    (fresh * price.input + cached * (price.cacheRead ?? price.input) + usage.output_tokens * price.output) /
    1e6
  );
}
