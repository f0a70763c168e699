import { Hono } from 'hono';
import { approvalView } from '../approvals/approval-view';
import { decideApproval } from '../approvals/decide-approval';
import { recordAudit } from '../audit/record-audit';
import { defaultPageRows } from '../contracts/admin-lists';
import { approvalsQuerySchema, decisionBodySchema } from '../contracts/approvals';
import { pageOf } from '../contracts/list-cursor';
import type { AppEnv } from '../env';
import { logOriginOf } from '../log/log-settings';
import { requireJson, validJson } from '../middleware/json-body';
import { requireKey } from '../middleware/require-key';
import { validQuery } from '../middleware/valid-query';
import { serviceKeysOf } from '../receipts/service-keys';
import { countSetting } from '../settings';
import { listHeldCalls } from '../storage/approvals';

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
      const caller = c.get('caller');
      const keys = await serviceKeysOf(c.env, logOriginOf(c.env));
      const decided = await decideApproval(c.req.param('callId'), c.req.valid('json'), {
        db: c.env.DB,
        now: Date.now,
        tenant: caller.tenant,
        keyId: caller.keyId,
        issuer: keys.issuer,
        signingKey: keys.receiptKey,
        capabilityTtlMs: countSetting(c.env, 'CAPABILITY_TTL_MS'),
        recordAudit: (event) => recordAudit(c.env, event),
      });
      return c.json(decided);
    },
  );
