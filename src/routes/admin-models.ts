import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { healthStubOf } from '../health/health-stub';
import { requireAdmin } from '../middleware/require-admin';
import { buildModelStatus } from '../policy/build-model-status';
import { configuredProviders } from '../policy/configured-providers';
import { loadCatalog } from '../policy/load-catalog';

/**
 * GET /v1/admin/models: every catalog model with its configuration and live health, read from the
 * shared health object itself (not the per-isolate copy requests plan with), so a circuit that just
 * opened shows at once.
 */
export const adminModelRoutes = new Hono<AppEnv>().get('/models', requireAdmin, async (c) => {
  const env = c.env as unknown as Record<string, unknown>;
  const catalog = loadCatalog(c.env.VALVE_CATALOG);
  const health = await healthStubOf(c.env).snapshot();
  return c.json(
    buildModelStatus({
      catalog,
      notConfigured: configuredProviders(catalog, (name) => env[name]),
      health,
    }),
  );
});
