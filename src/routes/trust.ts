import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { logOriginOf } from '../log/receipt-log';
import { jwksOf, serviceKeysOf } from '../receipts/service-keys';

// What auditors pin: every receipt key ever used, and the trust root with windows and log keys.

export const trustRoutes = new Hono<AppEnv>()
  .get('/.well-known/jwks.json', async (c) => {
    const { trustRoot } = await serviceKeysOf(c.env, logOriginOf(c.env));
    return c.json(jwksOf(trustRoot));
  })
  .get('/v1/trust-root', async (c) => {
    const { trustRoot } = await serviceKeysOf(c.env, logOriginOf(c.env));
    return c.json(trustRoot);
  });
