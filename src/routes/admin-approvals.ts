import { Hono } from 'hono';
import { approvalView } from '../approvals/approval-view';
import { adminApprovalsQuerySchema, maxApprovalRows } from '../contracts/admin-approvals';
import { pageOf } from '../contracts/list-cursor';
import type { AppEnv } from '../env';
import { requireAdmin } from '../middleware/require-admin';
import { validQuery } from '../middleware/valid-query';
import { listHeldCallsOfTenants } from '../storage/approvals';

/**
 * GET /v1/admin/approvals: the held tool calls of every tenant or of `tenant`, newest first, for the
 * operator's console. Read only: deciding stays with a tenant's reviewer key (POST /v1/approvals/{callId}).
 */
export const adminApprovalRoutes = new Hono<AppEnv>().get(
  '/approvals',
  requireAdmin,
  validQuery(adminApprovalsQuerySchema),
  async (c) => {
    const { tenant, status = 'pending', limit = maxApprovalRows, cursor } = c.req.valid('query');
    const now = Date.now();
    const rows = await listHeldCallsOfTenants(c.env.DB, {
      tenant,
      status,
      now,
      after: cursor,
      limit: limit + 1,
    });
    const { items, next } = pageOf(rows, limit, (row) => [row.heldAt, row.tenant, row.receiptId, row.callId]);
    // The reviewer's view of each call (never the offered tools' schemas or the decision's body), and whose it is.
    const approvals = items.map((row) => ({ tenant: row.tenant, ...approvalView(row, now) }));
    return c.json({ approvals, next });
  },
);
