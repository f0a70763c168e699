import type { CarriedDecision } from '../contracts/door-approvals';
import type { ToolTurn } from '../contracts/reason-request';
import type { ToolCall } from '../contracts/reason-response';
import { ApiError } from '../errors';
import { findHeldCalls, type StoredApproval } from '../storage/approvals';
import { type DecideDeps, decideHeld, reviewerTurn } from './decide-approval';

// A door's continuation after a reviewer decided a held call (docs/approvals.md "At the doors"): the
// recorded decision, loaded for the caller's tenant, becomes what the door does next. An approve or
// edit is the call to hand over with the token issued with the decision; a reject or respond is the
// held call and its reviewer's tool turn, to splice into the conversation for the model.

/** A held call a continuation names, with the answer an `mcp_approval_response` gave, if any. */
export interface NamedCall {
  callId: string;
  receiptId?: string;
  answer?: { approve: boolean; reason?: string };
  /** Where the held call belongs: the assistant turn of the answer that held it, when the request says. */
  anchor?: number;
}

export type CarriedCall =
  | { kind: 'runs'; decision: CarriedDecision; call: ToolCall }
  | {
      kind: 'reviewer';
      decision: CarriedDecision;
      held: { id: string; name: string; arguments: Record<string, unknown> };
      turn: ToolTurn;
    };

export interface CarryDeps {
  db: D1Database;
  tenant: string;
  now: () => number;
  /** Present when the continuation's key has `approvals:write`: its answer decides a pending call. */
  decide?: DecideDeps;
}

async function storedCall(named: NamedCall, deps: CarryDeps): Promise<StoredApproval> {
  const rows = await findHeldCalls(deps.db, deps.tenant, named.callId, named.receiptId);
  const [row] = rows;
  if (row === undefined)
    throw new ApiError('approval.not_found', `No held tool call ${named.callId} for this tenant.`, {
      details: { callId: named.callId },
    });
  if (rows.length > 1) {
    throw new ApiError(
      'approval.ambiguous',
      `More than one held tool call has the id ${named.callId}: name the answer’s receipt as receiptId.`,
      { details: { receiptIds: rows.map((r) => r.receiptId) } },
    );
  }
  return row;
}

async function decidedCall(named: NamedCall, deps: CarryDeps): Promise<StoredApproval> {
  const row = await storedCall(named, deps);
  if (row.expiresAt <= deps.now()) {
    throw new ApiError(
      'approval.expired',
      `The window of tool call ${row.callId} has passed: it can no longer be decided or continued.`,
      { details: { expiresAt: row.expiresAt } },
    );
  }
  if (row.status !== 'pending') return row;
  if (named.answer === undefined || deps.decide === undefined) {
    throw new ApiError(
      'approval.pending',
      `Tool call ${row.callId} awaits a reviewer: decide it with POST /v1/approvals/${row.callId} (a key with approvals:write), then continue.`,
      { details: { callId: row.callId, receiptId: row.receiptId, expiresAt: row.expiresAt } },
    );
  }
  // The same decision POST /v1/approvals takes, by this key: recorded and audited alike.
  const { approve, reason } = named.answer;
  const { stored } = await decideHeld(
    row,
    approve
      ? { type: 'approve', receiptId: row.receiptId }
      : { type: 'reject', receiptId: row.receiptId, ...(reason === undefined ? {} : { message: reason }) },
    deps.decide,
  );
  return stored;
}

function refuseContradiction(named: NamedCall, row: StoredApproval): void {
  if (named.answer === undefined) return;
  const approved = row.status === 'approved' || row.status === 'edited';
  if (named.answer.approve === approved) return;
  throw new ApiError(
    'approval.decided',
    `Tool call ${row.callId} was already decided (${row.status}): a decision is final, and this request's approve: ${named.answer.approve} contradicts it.`,
    { details: { status: row.status, decidedAt: row.decidedAt } },
  );
}

function carried(row: StoredApproval): CarriedCall {
  const decision: CarriedDecision = {
    callId: row.callId,
    receiptId: row.receiptId,
    status: row.status,
    decidedBy: row.decidedBy,
    decidedAt: row.decidedAt,
    auditSeq: row.auditSeq,
  };
  const taken = (row.decision ?? {}) as { name?: string; args?: Record<string, unknown>; message?: string };
  if (row.status === 'rejected' || row.status === 'responded') {
    const type = row.status === 'rejected' ? 'reject' : 'respond';
    return {
      kind: 'reviewer',
      decision,
      held: { id: row.callId, name: row.tool, arguments: row.args },
      turn: reviewerTurn(row, { type, ...(taken.message === undefined ? {} : { message: taken.message }) }),
    };
  }
  if (row.capability === null) {
    throw new ApiError(
      'approval.decided',
      `No capability token was issued with the decision on tool call ${row.callId}, so it cannot be handed over.`,
      { details: { status: row.status, decidedAt: row.decidedAt } },
    );
  }
  const edited = row.status === 'edited';
  return {
    kind: 'runs',
    decision,
    call: {
      id: row.callId,
      name: edited ? (taken.name ?? row.tool) : row.tool,
      arguments: edited ? (taken.args ?? row.args) : row.args,
      tainted: row.tainted,
      capability: row.capability,
    },
  };
}

/** The decisions a continuation names, in its order: each decided (in-line when allowed), or an error. */
export async function carryApprovals(named: readonly NamedCall[], deps: CarryDeps): Promise<CarriedCall[]> {
  const out: CarriedCall[] = [];
  for (const name of named) {
    const row = await decidedCall(name, deps);
    refuseContradiction(name, row);
    out.push(carried(row));
  }
  return out;
}
