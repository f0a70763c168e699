import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { readHealth } from '../health/health-client';
import { healthStubOf } from '../health/health-stub';
import { requireKey } from '../middleware/require-key';
import { buildDiscovery } from '../policy/build-discovery';
import { configuredProviders } from '../policy/configured-providers';
import { loadCatalog } from '../policy/load-catalog';

/** GET /v1/models: discovery for any valid key. */
export const modelRoutes = new Hono<AppEnv>().get('/models', requireKey(), async (c) => {
  const env = c.env as unknown as Record<string, unknown>;
  const catalog = loadCatalog(c.env.VALVE_CATALOG);
  return c.json(
    buildDiscovery({
      catalog,
      notConfigured: configuredProviders(catalog, (name) => env[name]),
      health: await readHealth(healthStubOf(c.env), Date.now()),
      version: c.env.VALVE_VERSION,
    }),
  );
});
