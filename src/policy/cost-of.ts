import type { Usage } from '../model/model-response';
import type { CatalogModel } from './catalog';

/**
 * What a call cost at the catalog's prices. `input_tokens` is the whole prompt: the part the provider
 * read from its prompt cache is billed at the cache-read price and the part it wrote to the cache at
 * the cache-write price, each when listed (else at the input price), the rest at the input price.
 */
export function costOf(usage: Usage, entry: CatalogModel): number {
  const price = entry.priceUsdPerMTok;
  const cached = Math.min(usage.cache_read_tokens ?? 0, usage.input_tokens);
  const written = Math.min(usage.cache_write_tokens ?? 0, usage.input_tokens - cached);
  const fresh = usage.input_tokens - cached - written;
  return (
    (fresh * price.input +
      cached * (price.cacheRead ?? price.input) +
      written * (price.cacheWrite ?? price.input) +
      usage.output_tokens * price.output) /
    1e6
  );
}
