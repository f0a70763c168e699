import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { app } from '../../src/app';
import type { Catalog } from '../../src/policy/catalog';

// The seam for per-test catalogs. The Workers test environment takes VALVE_CATALOG from wrangler.toml
// `[vars]` (empty: the embedded default); a test that needs its own models calls the Hono app directly
// with a copy of the environment whose VALVE_CATALOG is that catalog's JSON, and a real execution
// context, so background work (health updates through waitUntil) runs and can be awaited.

export interface CatalogCall {
  res: Response;
  /** Waits for the work the request left in the background (health updates). */
  settled: () => Promise<void>;
}

export async function callWithCatalog(
  catalog: Catalog,
  path: string,
  init: RequestInit,
  extraEnv: Record<string, unknown> = {},
): Promise<CatalogCall> {
  const ctx = createExecutionContext();
  const res = await app.request(
    `http://valve.test${path}`,
    init,
    { ...env, VALVE_CATALOG: JSON.stringify(catalog), ...extraEnv },
    ctx,
  );
  return { res, settled: () => waitOnExecutionContext(ctx) };
}

/** POST /v1/reason with a per-test catalog, as `key`, with any extra request headers. */
export function reasonWithCatalog(
  catalog: Catalog,
  key: string,
  body: unknown,
  extraEnv: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<CatalogCall> {
  return callWithCatalog(
    catalog,
    '/v1/reason',
    {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${key}`, ...headers },
      body: JSON.stringify(body),
    },
    extraEnv,
  );
}
