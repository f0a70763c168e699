import { Hono } from 'hono';
import { defaultPageRows, receiptsQuerySchema } from '../contracts/admin-lists';
import { pageOf } from '../contracts/list-cursor';
import type { AppEnv } from '../env';
import { logOriginOf } from '../log/log-settings';
import { requireAdmin } from '../middleware/require-admin';
import { validQuery } from '../middleware/valid-query';
import { listIssuedReceipts } from '../storage/receipt-listing';

/** GET /v1/admin/receipts: issued receipts' metadata, newest first; never a JWS, a proof or content. */
export const adminReceiptRoutes = new Hono<AppEnv>().get(
  '/receipts',
  requireAdmin,
  validQuery(receiptsQuerySchema),
  async (c) => {
    const { tenant, limit = defaultPageRows, cursor } = c.req.valid('query');
    const rows = await listIssuedReceipts(c.env.DB, { tenant, after: cursor, limit: limit + 1 });
    const { items, next } = pageOf(rows, limit, (row) => [row.issuedAt, row.tenant, row.id]);
    const origin = logOriginOf(c.env);
    const receipts = items.map((row) => ({
      receiptId: row.id,
      tenant: row.tenant,
      issuedAt: row.issuedAt,
      model: { provider: row.provider, model: row.model, region: row.region },
      costUsd: row.costUsd,
      log: { origin: row.logOrigin ?? origin, index: row.logIndex },
    }));
    return c.json({ receipts, next });
  },
);
