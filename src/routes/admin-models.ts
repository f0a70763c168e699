import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { healthStubOf } from '../health/health-stub';
import { requireAdmin } from '../middleware/require-admin';
import { buildModelStatus } from '../policy/build-model-status';
import { catalogInForce } from '../policy/catalog-in-force';

/**
 * GET /v1/admin/models: every catalog model with its configuration and live health, read from the
 * shared health object itself (not the per-isolate copy requests plan with), so a circuit that just
 * opened shows at once.
 */
export const adminModelRoutes = new Hono<AppEnv>().get('/models', requireAdmin, async (c) => {
  const { catalog, notConfigured } = catalogInForce(c.env);
  const health = await healthStubOf(c.env).snapshot();
  return c.json(
    buildModelStatus({
      catalog,
      notConfigured,
      health,
    }),
  );
});
