import { Hono } from 'hono';
import { writeBehindFigures } from '../background/write-with-retries';
import type { AppEnv } from '../env';

/**
 * Liveness, and this isolate's writes behind the answer: a receipt row or usage record that could not
 * be written after its retries is counted here (and logged as `write_behind.lost` with what to restore).
 */
export const healthRoutes = new Hono<AppEnv>().get('/health', (c) =>
  c.json({ status: 'ok' as const, version: c.env.VALVE_VERSION, writeBehind: writeBehindFigures() }),
);
