import type { Approval, ApprovalStatus, HeldCall } from '../contracts/approvals';
import { argsSha256 } from '../receipts/capability-token';

export type { HeldCall } from '../contracts/approvals';

// The held tool calls of every tenant (migrations/0006_approvals.sql): written when the answer that
// held them is issued, decided once.

/** A held call as stored, with its decision once taken. */
export interface StoredApproval extends HeldCall {
  status: Exclude<ApprovalStatus, 'expired'>;
  decision: Record<string, unknown> | null;
  decidedBy: string | null;
  decidedAt: number | null;
  /** The token issued with an approve or edit, once its audit record was written. */
  capability: string | null;
  /** The seq of the decision's audit record. */
  auditSeq: number | null;
  /** When the arguments were purged after the window (`args` is then `{}`); null while they are kept. */
  argsPurgedAt: number | null;
  /** The JCS SHA-256 of the held arguments, computed when the call was held; kept after the purge. */
  argsSha256: string | null;
}

interface RawRow {
  tenant: string;
  receipt_id: string;
  call_id: string;
  tool: string;
  args: string;
  tools: string;
  description: string | null;
  allowed: string;
  tainted: number;
  held_at: number;
  expires_at: number;
  status: StoredApproval['status'];
  decision: string | null;
  decided_by: string | null;
  decided_at: number | null;
  capability: string | null;
  audit_seq: number | null;
  args_purged_at: number | null;
  args_sha256: string | null;
}

function fromRow(row: RawRow): StoredApproval {
  return {
    tenant: row.tenant,
    receiptId: row.receipt_id,
    callId: row.call_id,
    tool: row.tool,
    args: JSON.parse(row.args) as Record<string, unknown>,
    tools: JSON.parse(row.tools) as HeldCall['tools'],
    ...(row.description === null ? {} : { description: row.description }),
    allowed: JSON.parse(row.allowed) as Approval['allowed'],
    tainted: row.tainted === 1,
    heldAt: row.held_at,
    expiresAt: row.expires_at,
    status: row.status,
    decision: row.decision === null ? null : (JSON.parse(row.decision) as Record<string, unknown>),
    decidedBy: row.decided_by,
    decidedAt: row.decided_at,
    capability: row.capability,
    auditSeq: row.audit_seq,
    argsPurgedAt: row.args_purged_at,
    argsSha256: row.args_sha256,
  };
}

function digestOf(args: Record<string, unknown>): string | null {
  try {
    return argsSha256(args);
  } catch {
    return null;
  }
}

/**
 * Drops the arguments (the held ones, an edit's, and the offered tools' schemas) of held calls whose
 * window ended by `now`, decided or not: what the audit record commits to, their digest, stays.
 */
export function purgeHeldArgs(db: D1Database, now: number): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE approvals SET args = '{}', tools = '[]', decision = json_remove(decision, '$.args'),
         args_purged_at = ?1
       WHERE args_purged_at IS NULL AND expires_at <= ?1`,
    )
    .bind(now);
}

/**
 * Keeps held calls in one statement each, batched; a call already held (a replayed answer) stays as it
 * is. The same round trip purges the arguments of calls whose window has passed.
 */
export async function insertHeldCalls(db: D1Database, calls: readonly HeldCall[]): Promise<void> {
  if (calls.length === 0) return;
  const statement = db.prepare(
    `INSERT INTO approvals (tenant, receipt_id, call_id, tool, args, tools, description, allowed, tainted, held_at, expires_at, args_sha256)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
  );
  await db.batch([
    ...calls.map((call) =>
      statement.bind(
        call.tenant,
        call.receiptId,
        call.callId,
        call.tool,
        JSON.stringify(call.args),
        JSON.stringify(call.tools),
        call.description ?? null,
        JSON.stringify(call.allowed),
        call.tainted ? 1 : 0,
        call.heldAt,
        call.expiresAt,
        digestOf(call.args),
      ),
    ),
    purgeHeldArgs(db, Math.min(...calls.map((call) => call.heldAt))),
  ]);
}

/** A tenant's held calls of one answer. */
export async function heldCallsOfReceipt(
  db: D1Database,
  tenant: string,
  receiptId: string,
): Promise<StoredApproval[]> {
  const { results } = await db
    .prepare('SELECT * FROM approvals WHERE tenant = ? AND receipt_id = ?')
    .bind(tenant, receiptId)
    .all<RawRow>();
  return results.map(fromRow);
}

/** Keeps the token issued with a decision and its audit record's seq, once the record is written. */
export async function recordDecisionOutcome(
  db: D1Database,
  key: { tenant: string; receiptId: string; callId: string },
  outcome: { capability: string | null; auditSeq: number },
): Promise<void> {
  await db
    .prepare(
      'UPDATE approvals SET capability = ?, audit_seq = ? WHERE tenant = ? AND receipt_id = ? AND call_id = ?',
    )
    .bind(outcome.capability, outcome.auditSeq, key.tenant, key.receiptId, key.callId)
    .run();
}

/** A tenant's held calls with this id (one, unless a model reused an id across answers), or the one of a receipt. */
export async function findHeldCalls(
  db: D1Database,
  tenant: string,
  callId: string,
  receiptId?: string,
): Promise<StoredApproval[]> {
  const { results } = await db
    .prepare(
      `SELECT * FROM approvals WHERE tenant = ? AND call_id = ? AND (?3 IS NULL OR receipt_id = ?3)
       ORDER BY held_at DESC LIMIT 10`,
    )
    .bind(tenant, callId, receiptId ?? null)
    .all<RawRow>();
  return results.map(fromRow);
}

/**
 * Takes a decision on a pending call still in its window: true when this request took it, false when
 * another decision came first or the window ended (the row says which).
 */
export async function decideHeldCall(
  db: D1Database,
  key: { tenant: string; receiptId: string; callId: string },
  decided: { status: StoredApproval['status']; decision: Record<string, unknown>; by: string; at: number },
): Promise<boolean> {
  const result = await db
    .prepare(
      `UPDATE approvals SET status = ?, decision = ?, decided_by = ?, decided_at = ?
       WHERE tenant = ? AND receipt_id = ? AND call_id = ? AND status = 'pending' AND expires_at > ?`,
    )
    .bind(
      decided.status,
      JSON.stringify(decided.decision),
      decided.by,
      decided.at,
      key.tenant,
      key.receiptId,
      key.callId,
      decided.at,
    )
    .run();
  return result.meta.changes === 1;
}

/** The conditions and values that select held calls in `status` at `now`. */
function statusWhere(status: ApprovalStatus, now: number): { where: string[]; values: unknown[] } {
  const where = ['status = ?'];
  const values: unknown[] = [status === 'expired' ? 'pending' : status];
  if (status === 'pending') {
    where.push('expires_at > ?');
    values.push(now);
  } else if (status === 'expired') {
    where.push('expires_at <= ?');
    values.push(now);
  }
  return { where, values };
}

/**
 * A tenant's held calls in one status, newest first, after a place (held_at, receipt_id, call_id) in
 * that order; `pending` lists only those still in their window, `expired` the pending ones past it.
 */
export async function listHeldCalls(
  db: D1Database,
  query: {
    tenant: string;
    status: ApprovalStatus;
    now: number;
    after?: readonly [number, string, string];
    limit: number;
  },
): Promise<StoredApproval[]> {
  const { where, values } = statusWhere(query.status, query.now);
  where.unshift('tenant = ?');
  values.unshift(query.tenant);
  if (query.after !== undefined) {
    where.push('(held_at, receipt_id, call_id) < (?, ?, ?)');
    values.push(...query.after);
  }
  const { results } = await db
    .prepare(
      `SELECT * FROM approvals WHERE ${where.join(' AND ')}
       ORDER BY held_at DESC, receipt_id DESC, call_id DESC LIMIT ?`,
    )
    .bind(...values, query.limit)
    .all<RawRow>();
  return results.map(fromRow);
}

/**
 * The held calls of every tenant, or of one, in one status, for the operator's console
 * (GET /v1/admin/approvals): newest first, after a place (held_at, tenant, receipt_id, call_id).
 */
export async function listHeldCallsOfTenants(
  db: D1Database,
  query: {
    tenant?: string;
    status: ApprovalStatus;
    now: number;
    after?: readonly [number, string, string, string];
    limit: number;
  },
): Promise<StoredApproval[]> {
  const { where, values } = statusWhere(query.status, query.now);
  if (query.tenant !== undefined) {
    where.push('tenant = ?');
    values.push(query.tenant);
  }
  if (query.after !== undefined) {
    where.push('(held_at, tenant, receipt_id, call_id) < (?, ?, ?, ?)');
    values.push(...query.after);
  }
  const { results } = await db
    .prepare(
      `SELECT * FROM approvals WHERE ${where.join(' AND ')}
       ORDER BY held_at DESC, tenant DESC, receipt_id DESC, call_id DESC LIMIT ?`,
    )
    .bind(...values, query.limit)
    .all<RawRow>();
  return results.map(fromRow);
}
