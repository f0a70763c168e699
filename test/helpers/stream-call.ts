import type { Catalog } from '../../src/policy/catalog';
import { type CatalogCall, reasonWithCatalog } from './with-catalog';

/** POST /v1/reason with a per-test catalog and an Accept header (SSE by default). */
export function streamWithCatalog(
  catalog: Catalog,
  key: string,
  body: unknown,
  accept = 'text/event-stream',
  extraEnv: Record<string, unknown> = {},
): Promise<CatalogCall> {
  return reasonWithCatalog(catalog, key, body, extraEnv, { Accept: accept });
}
