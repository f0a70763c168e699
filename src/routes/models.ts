import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { readHealth } from '../health/health-client';
import { healthStubOf } from '../health/health-stub';
import { requireKey } from '../middleware/require-key';
import { buildDiscovery } from '../policy/build-discovery';
import { catalogInForce } from '../policy/catalog-in-force';

/** GET /v1/models: discovery for any valid key. */
export const modelRoutes = new Hono<AppEnv>().get('/models', requireKey(), async (c) => {
  const { catalog, notConfigured } = catalogInForce(c.env);
  return c.json(
    buildDiscovery({
      catalog,
      notConfigured,
      health: await readHealth(healthStubOf(c.env), Date.now()),
      version: c.env.VALVE_VERSION,
    }),
  );
});
