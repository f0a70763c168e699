import { z } from 'zod';
import { queryTenant } from './admin-lists';
import { approvalSchema, approvalStatuses } from './approvals';
import { queryCursor } from './list-cursor';
import { tenantPattern } from './operator-bodies';
import { queryInteger } from './query-params';

// GET /v1/admin/approvals: the held tool calls of every tenant, or of one, for the operator's console.
// Read only: a decision takes a reviewer's key (POST /v1/approvals/{callId}), never the admin token.
// Unlike the other admin lists, each row holds content (the call's arguments), so a page holds at most
// 100 rows, as the reviewer's own list does.

export const maxApprovalRows = 100;

export const adminApprovalsQuerySchema = z.strictObject({
  tenant: queryTenant().optional(),
  /** Default `pending`: still waiting, within their window. */
  status: z.enum(approvalStatuses).optional(),
  limit: queryInteger(1, maxApprovalRows).optional(),
  /** After the call held at this time by this tenant in this receipt with this id: newest first. */
  cursor: queryCursor(
    z.tuple([z.number().int().min(0), z.string().regex(tenantPattern), z.string(), z.string()]),
  ).optional(),
});

/** A held call as the operator sees it: the reviewer's view, and whose it is. */
export const adminApprovalSchema = approvalSchema.extend({ tenant: z.string() });
export type AdminApproval = z.infer<typeof adminApprovalSchema>;

export const adminApprovalsPageSchema = z.strictObject({
  approvals: z.array(adminApprovalSchema),
  next: z.string().nullable(),
});
export type AdminApprovalsPage = z.infer<typeof adminApprovalsPageSchema>;
