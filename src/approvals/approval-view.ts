import type { Approval } from '../contracts/approvals';
import type { StoredApproval } from '../storage/approvals';

/** A held call as a reviewer sees it: a pending one past its window reads as `expired`. */
export function approvalView(row: StoredApproval, now: number): Approval {
  return {
    callId: row.callId,
    receiptId: row.receiptId,
    tool: row.tool,
    args: row.args,
    ...(row.description === undefined ? {} : { description: row.description }),
    allowed: row.allowed,
    status: row.status === 'pending' && row.expiresAt <= now ? 'expired' : row.status,
    heldAt: row.heldAt,
    expiresAt: row.expiresAt,
    decidedAt: row.decidedAt,
    decidedBy: row.decidedBy,
  };
}
