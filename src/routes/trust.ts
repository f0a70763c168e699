import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { jwksOf } from '../receipts/service-keys';
import { trustRootOf } from './log-origins';

// What auditors pin: every receipt key ever used, and the trust root with windows and every log shard's key.

export const trustRoutes = new Hono<AppEnv>()
  .get('/.well-known/jwks.json', async (c) => c.json(jwksOf(await trustRootOf(c.env))))
  .get('/v1/trust-root', async (c) => c.json(await trustRootOf(c.env)));
