import type { HeldApproval } from '../contracts/door-approvals';
import { heldCallsOfReceipt } from '../storage/approvals';

/** The approval requests of the calls a door held back in one answer, as kept for a reviewer. */
export async function heldApprovalsOf(
  db: D1Database,
  tenant: string,
  receiptId: string,
  callIds: readonly string[],
): Promise<HeldApproval[]> {
  const rows = await heldCallsOfReceipt(db, tenant, receiptId);
  return callIds.flatMap((id) => {
    const row = rows.find((r) => r.callId === id);
    if (row === undefined) return [];
    return [
      {
        callId: row.callId,
        receiptId: row.receiptId,
        tool: row.tool,
        args: row.args,
        ...(row.description === undefined ? {} : { description: row.description }),
        allowed: row.allowed,
        expiresAt: row.expiresAt,
      },
    ];
  });
}
