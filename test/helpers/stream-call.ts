import type { Catalog } from '../../src/policy/catalog';
import { type CatalogCall, callWithCatalog } from './with-catalog';

/** POST /v1/reason with a per-test catalog and an Accept header (SSE by default). */
export function streamWithCatalog(
  catalog: Catalog,
  key: string,
  body: unknown,
  accept = 'text/event-stream',
  extraEnv: Record<string, unknown> = {},
): Promise<CatalogCall> {
  return callWithCatalog(
    catalog,
    '/v1/reason',
    {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${key}`, Accept: accept },
      body: JSON.stringify(body),
    },
    extraEnv,
  );
}
