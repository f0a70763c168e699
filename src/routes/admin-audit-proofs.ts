import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { auditQuerySchema } from '../contracts/operator-bodies';
import type { AppEnv } from '../env';
import { logOriginOf } from '../log/log-settings';
import { validationError } from '../middleware/json-body';
import { requireAdmin } from '../middleware/require-admin';

// Each audit record's entry in the Merkle log, proven against the latest checkpoint, so
// `valve-verify audit` can check that the trail downloaded from GET /v1/admin/audit was logged.

export const adminAuditProofRoutes = new Hono<AppEnv>().get(
  '/audit/proofs',
  requireAdmin,
  zValidator('query', auditQuerySchema, (result) => {
    if (!result.success) throw validationError(result.error);
  }),
  async (c) => {
    const { after = 0, limit = 100 } = c.req.valid('query');
    const rows = await c.env.AUDIT_TRAIL.getByName('global').logged(after, limit);
    const log = c.env.RECEIPT_LOG.getByName(logOriginOf(c.env));
    const checkpoint = await log.checkpoint();
    const size = Number(checkpoint.split('\n')[1]);
    const proofs = [];
    for (const row of rows) {
      if (row.logIndex === null || row.logIndex >= size) continue;
      const proof = await log.inclusion(row.logIndex, size);
      if (proof !== null)
        proofs.push({ seq: row.seq, hash: row.hash, index: row.logIndex, hashes: proof.hashes });
    }
    const last = rows[rows.length - 1];
    return c.json({ checkpoint, proofs, next: rows.length === limit && last ? last.seq : null });
  },
);
