import { sha256 } from '@noble/hashes/sha2.js';
import type { AuditRecord } from '../audit/audit-chain';
import type { AuditEvent } from '../audit/audit-trail';
import type { Decided, DecisionBody } from '../contracts/approvals';
import type { ToolTurn } from '../contracts/reason-request';
import { bytesToHex } from '../encoding/hex';
import { utf8 } from '../encoding/utf8';
import { ApiError } from '../errors';
import { checkAgainstSchema } from '../reason/check-json';
import { argsSha256, signCapability } from '../receipts/capability-token';
import { canonicalJson, type JsonValue } from '../receipts/jcs';
import type { Ed25519SigningKey } from '../signing/keys';
import {
  decideHeldCall,
  findHeldCalls,
  recordDecisionOutcome,
  type StoredApproval,
} from '../storage/approvals';
import { approvalView } from './approval-view';

// A reviewer's decision on one held tool call (POST /v1/approvals/{callId}): taken once, within the
// call's window, by a key of the call's tenant with `approvals:write`; an edit is checked against the
// tool's inputSchema; approve and edit yield the call's capability token; and every decision is an
// audit record, which the audit trail appends to the log, committing to the decision and naming the
// receipt of the answer that held the call.

export interface DecideDeps {
  db: D1Database;
  now: () => number;
  tenant: string;
  /** The id of the reviewer's API key. */
  keyId: string;
  issuer: string;
  signingKey: Ed25519SigningKey;
  capabilityTtlMs: number;
  recordAudit: (event: AuditEvent) => Promise<AuditRecord>;
}

const statusOf = {
  approve: 'approved',
  edit: 'edited',
  reject: 'rejected',
  respond: 'responded',
} as const;

function sha256Hex(value: JsonValue): string {
  return bytesToHex(sha256(utf8(canonicalJson(value))));
}

async function heldCall(callId: string, body: DecisionBody, deps: DecideDeps): Promise<StoredApproval> {
  const rows = await findHeldCalls(deps.db, deps.tenant, callId, body.receiptId);
  const [row] = rows;
  if (row === undefined)
    throw new ApiError('approval.not_found', 'No held tool call has this id for this tenant.');
  if (rows.length > 1) {
    throw new ApiError(
      'approval.ambiguous',
      'More than one held tool call has this id: name the answer’s receipt as `receiptId`.',
      { details: { receiptIds: rows.map((r) => r.receiptId) } },
    );
  }
  return row;
}

function refuseIfClosed(row: StoredApproval, now: number): void {
  if (row.status !== 'pending') {
    throw new ApiError('approval.decided', `This tool call was already decided (${row.status}).`, {
      details: { status: row.status, decidedAt: row.decidedAt },
    });
  }
  if (row.expiresAt <= now) {
    throw new ApiError('approval.expired', 'The time to decide this tool call has passed.', {
      details: { expiresAt: row.expiresAt },
    });
  }
}

/** The call as it will run after an edit: a tool the request offered, arguments valid for it. */
function editedCall(row: StoredApproval, body: Extract<DecisionBody, { type: 'edit' }>) {
  const name = body.name ?? row.tool;
  const tool = row.tools.find((t) => t.name === name);
  if (tool === undefined) {
    throw new ApiError('approval.invalid_args', 'The edit names a tool the request did not offer.', {
      details: { issues: [{ path: '/name', keyword: 'enum', message: 'is not an offered tool' }] },
    });
  }
  const check = checkAgainstSchema(body.args, tool.inputSchema as Record<string, unknown>);
  if (!check.ok) {
    throw new ApiError('approval.invalid_args', 'The edited arguments do not match the tool’s inputSchema.', {
      details: {
        issues: check.issues.map((issue) => ({ ...issue, path: `/args${issue.path.replace(/^#/, '')}` })),
      },
    });
  }
  return { name, args: body.args };
}

/** A reject or respond as the tool turn of the caller's next request: the reviewer's, not the tool's. */
export function reviewerTurn(
  row: Pick<StoredApproval, 'callId' | 'tool'>,
  body: { type: 'reject' | 'respond'; message?: string },
): ToolTurn {
  return {
    role: 'tool',
    toolCallId: row.callId,
    name: row.tool,
    content: body.message ?? 'A reviewer rejected this call; it was not run.',
    status: body.type === 'reject' ? 'rejected' : 'skipped',
    source: 'reviewer',
  };
}

/** The call as it will run after an approve or edit, with its arguments' digest; none for reject or respond. */
interface Runs {
  name: string;
  args: Record<string, unknown>;
  argsSha256: string;
}

type Decision = Omit<DecisionBody, 'receiptId'>;
type Status = (typeof statusOf)[DecisionBody['type']];

function refuseIfNotAllowed(row: StoredApproval, type: DecisionBody['type']): void {
  if (!row.allowed.includes(type)) {
    throw new ApiError('approval.not_allowed', `This tool call does not allow the decision ${type}.`, {
      details: { allowed: row.allowed },
    });
  }
}

function callThatRuns(row: StoredApproval, body: DecisionBody): Runs | undefined {
  const runs =
    body.type === 'approve'
      ? { name: row.tool, args: row.args }
      : body.type === 'edit'
        ? editedCall(row, body)
        : undefined;
  if (runs === undefined) return undefined;
  // Argument digests are taken before the decision is stored, so arguments that are not I-JSON are a 400.
  try {
    return { ...runs, argsSha256: argsSha256(runs.args) };
  } catch {
    throw new ApiError('approval.invalid_args', 'The edited arguments are not I-JSON.');
  }
}

/** Stores the decision on the still-pending call; when another came first or the window closed, says which. */
async function storeDecision(
  row: StoredApproval,
  stored: { status: Status; decision: Decision; at: number },
  deps: DecideDeps,
): Promise<void> {
  const key = { tenant: deps.tenant, receiptId: row.receiptId, callId: row.callId };
  const { status, decision, at } = stored;
  if (!(await decideHeldCall(deps.db, key, { status, decision, by: deps.keyId, at }))) {
    // Another decision came first, or the window closed meanwhile: say which.
    const [now] = await findHeldCalls(deps.db, deps.tenant, row.callId, row.receiptId);
    refuseIfClosed(now ?? row, deps.now());
    throw new Error('a pending call in its window was not decided');
  }
}

function capabilityFor(
  row: StoredApproval,
  runs: Runs,
  type: DecisionBody['type'],
  at: number,
  deps: DecideDeps,
): Promise<string> {
  return signCapability(
    {
      v: 1,
      iss: deps.issuer,
      tenant: deps.tenant,
      rid: row.receiptId,
      call: row.callId,
      tool: runs.name,
      argsSha256: runs.argsSha256,
      tainted: row.tainted,
      decision: type === 'approve' ? 'approve' : 'edit',
      by: deps.keyId,
      iat: at,
      exp: at + deps.capabilityTtlMs,
    },
    deps.signingKey,
  );
}

// No content in the trail: the decision, the held arguments and the token by their SHA-256.
function auditDecision(
  row: StoredApproval,
  made: { type: DecisionBody['type']; status: Status; decision: Decision },
  runs: Runs | undefined,
  capability: string | undefined,
  deps: DecideDeps,
): Promise<AuditRecord> {
  return deps.recordAudit({
    action: 'approval.decided',
    actor: deps.keyId,
    subject: `${row.receiptId}/${row.callId}`,
    outcome: made.status,
    details: {
      tenant: deps.tenant,
      receiptId: row.receiptId,
      callId: row.callId,
      tool: row.tool,
      decision: made.type,
      decisionSha256: sha256Hex(made.decision as JsonValue),
      // The digest taken when the call was held (rows held before migration 0008 have none).
      heldArgsSha256: row.argsSha256 ?? argsSha256(row.args),
      ...(runs === undefined ? {} : { runs: runs.name, runsArgsSha256: runs.argsSha256 }),
      capabilitySha256: capability === undefined ? null : bytesToHex(sha256(utf8(capability))),
    },
  });
}

export async function decideApproval(callId: string, body: DecisionBody, deps: DecideDeps): Promise<Decided> {
  const row = await heldCall(callId, body, deps);
  return (await decideHeld(row, body, deps)).decided;
}

/**
 * Decides a held call its caller has already read (a door's continuation reads it to find the call), and
 * gives back the row as it is now stored beside the answer, so nobody reads it again.
 */
export async function decideHeld(
  row: StoredApproval,
  body: DecisionBody,
  deps: DecideDeps,
): Promise<{ decided: Decided; stored: StoredApproval }> {
  const at = deps.now();
  refuseIfClosed(row, at);
  refuseIfNotAllowed(row, body.type);
  const runs = callThatRuns(row, body);
  const { receiptId: _, ...decision } = body;
  const status = statusOf[body.type];
  await storeDecision(row, { status, decision, at }, deps);
  const capability = runs === undefined ? undefined : await capabilityFor(row, runs, body.type, at, deps);
  const record = await auditDecision(row, { type: body.type, status, decision }, runs, capability, deps);
  // A door's continuation hands over this very token, and names this record.
  const key = { tenant: deps.tenant, receiptId: row.receiptId, callId: row.callId };
  await recordDecisionOutcome(deps.db, key, { capability: capability ?? null, auditSeq: record.seq });
  const stored: StoredApproval = {
    ...row,
    status,
    decision,
    decidedBy: deps.keyId,
    decidedAt: at,
    capability: capability ?? null,
    auditSeq: record.seq,
  };
  const decided: Decided = {
    approval: approvalView(stored, at),
    ...(runs === undefined || capability === undefined
      ? {}
      : { toolCall: { id: row.callId, name: runs.name, arguments: runs.args, capability } }),
    ...('message' in body && body.message !== undefined ? { message: body.message } : {}),
    ...(body.type === 'reject' || body.type === 'respond' ? { toolTurn: reviewerTurn(row, body) } : {}),
    audit: { seq: record.seq, hash: record.hash },
  };
  return { decided, stored };
}
