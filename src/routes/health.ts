import { Hono } from 'hono';
import type { AppEnv } from '../env';

export const healthRoutes = new Hono<AppEnv>().get('/health', (c) =>
  c.json({ status: 'ok' as const, version: c.env.VALVE_VERSION }),
);
