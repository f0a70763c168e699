import { Hono } from 'hono';
import { reasonRequestSchema } from '../contracts/reason-request';
import type { AppEnv } from '../env';
import { requireJson, validJson } from '../middleware/json-body';
import { requireKey } from '../middleware/require-key';
import { loadCatalog } from '../policy/load-catalog';
import { randomHex } from '../random-token';
import { runReason } from '../reason/run-reason';

export const reasonRoutes = new Hono<AppEnv>().post(
  '/reason',
  requireKey('reason'),
  requireJson,
  validJson(reasonRequestSchema),
  async (c) => {
    const startedAt = performance.now();
    const env = c.env as unknown as Record<string, unknown>;
    const response = await runReason(c.req.valid('json'), {
      catalog: loadCatalog(c.env.VALVE_CATALOG),
      secret: (name) =>
        typeof env[name] === 'string' && env[name] !== '' ? (env[name] as string) : undefined,
      fetch: (input, init) => fetch(input, init),
      now: () => performance.now(),
      startedAt,
      randomHex,
    });
    return c.json(response);
  },
);
