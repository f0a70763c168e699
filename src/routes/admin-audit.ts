import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { auditQuerySchema } from '../contracts/operator-bodies';
import type { AppEnv } from '../env';
import { validationError } from '../middleware/json-body';
import { requireAdmin } from '../middleware/require-admin';

export const adminAuditRoutes = new Hono<AppEnv>().get(
  '/audit',
  requireAdmin,
  zValidator('query', auditQuerySchema, (result) => {
    if (!result.success) throw validationError(result.error);
  }),
  async (c) => {
    const { after = 0, limit = 100 } = c.req.valid('query');
    const records = await c.env.AUDIT_TRAIL.getByName('global').list(after, limit);
    const last = records[records.length - 1];
    return c.json({ records, next: records.length === limit && last ? last.seq : null });
  },
);
