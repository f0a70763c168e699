import { Hono } from 'hono';
import { approvalView } from '../approvals/approval-view';
import { decideApproval } from '../approvals/decide-approval';
import { defaultPageRows } from '../contracts/admin-lists';
import { approvalsQuerySchema, decisionBodySchema } from '../contracts/approvals';
import { pageOf } from '../contracts/list-cursor';
import type { AppEnv } from '../env';
import { requireJson, validJson } from '../middleware/json-body';
import { requireKey } from '../middleware/require-key';
import { validQuery } from '../middleware/valid-query';
import { listHeldCalls } from '../storage/approvals';
import { decideDepsOf } from './decide-deps';

// A reviewer's API (docs/approvals.md): what waits, and a decision on one held tool call. Both take a
// key with `approvals:write`, which an agent's key does not carry, and see only the key's tenant.

export const approvalRoutes = new Hono<AppEnv>()
  .get('/approvals', requireKey('approvals:write'), validQuery(approvalsQuerySchema), async (c) => {
    const { status = 'pending', limit = defaultPageRows, cursor } = c.req.valid('query');
    const now = Date.now();
    const rows = await listHeldCalls(c.env.DB, {
      tenant: c.get('caller').tenant,
      status,
      now,
      after: cursor,
      limit: limit + 1,
    });
    const { items, next } = pageOf(rows, limit, (row) => [row.heldAt, row.receiptId, row.callId]);
    return c.json({ items: items.map((row) => approvalView(row, now)), next });
  })
  .post(
    '/approvals/:callId',
    requireKey('approvals:write'),
    requireJson,
    validJson(decisionBodySchema),
    async (c) => {
      const decided = await decideApproval(c.req.param('callId'), c.req.valid('json'), await decideDepsOf(c));
      return c.json(decided);
    },
  );
