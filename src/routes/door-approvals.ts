import type { Context } from 'hono';
import { type CarriedCall, carryApprovals, type NamedCall } from '../approvals/carry-approvals';
import { heldApprovalsOf } from '../approvals/held-approvals';
import type { DecidedAnswer } from '../doors/decided-answer';
import type { DoorRequest } from '../doors/pipeline-request';
import type { ReviewerSplice } from '../doors/splice-reviewer-turns';
import type { ApprovalsOf } from '../doors/valve-extension';
import type { AppEnv } from '../env';
import { decideDepsOf } from './decide-deps';

// Held calls at the doors (docs/approvals.md "At the doors"): the approval requests of what an answer
// held back, and what a continuation that names decided calls does next.

/** The approval requests (with their windows, as kept in D1) of the calls an answer held back. */
export function approvalsLookup(c: Context<AppEnv>): ApprovalsOf {
  return (response, held) =>
    heldApprovalsOf(
      c.env.DB,
      c.get('caller').tenant,
      response.receiptId,
      held.held.map((call) => call.id),
    );
}

export interface DoorContinuation {
  /** An approved or edited call to hand over without a model (the first not yet answered). */
  run?: DecidedAnswer;
  /** Rejected or responded calls to put back into the conversation with their reviewer's turn. */
  splices: ReviewerSplice[];
}

/**
 * What the named decisions make of this request. A call whose result the conversation already holds
 * is done (the client ran it, or it was spliced in), so naming it again changes nothing.
 */
export async function continuationOf(
  c: Context<AppEnv>,
  named: readonly NamedCall[],
  door: DoorRequest,
): Promise<DoorContinuation> {
  // A call whose result the conversation holds is done: it is not loaded again, so a conversation that
  // keeps its old mcp_approval_response items goes on after the window too.
  const answered = new Set(
    (door.request.conversation ?? []).flatMap((turn) => (turn.role === 'tool' ? [turn.toolCallId] : [])),
  );
  const pending = named.filter((n) => !answered.has(n.callId));
  if (pending.length === 0) return { splices: [] };
  const caller = c.get('caller');
  const canDecide = caller.scopes.includes('approvals:write');
  // A call an mcp_approval_response answers is carried with that answer, wherever else it is named.
  const withAnswer = new Set(pending.flatMap((n) => (n.answer === undefined ? [] : [n.callId])));
  const carried = await carryApprovals(
    pending.filter((n) => n.answer !== undefined || !withAnswer.has(n.callId)),
    {
      db: c.env.DB,
      tenant: caller.tenant,
      now: Date.now,
      ...(canDecide && { decide: await decideDepsOf(c) }),
    },
  );
  // A call named twice (in valve.approvals and by an mcp_approval_response) is carried once.
  const seen = new Set<string>();
  const open = carried.filter((call) => {
    const key = `${call.decision.receiptId}/${call.decision.callId}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const run = open.find((call): call is Extract<CarriedCall, { kind: 'runs' }> => call.kind === 'runs');
  const anchorOf = (call: CarriedCall) =>
    pending.find(
      (n) =>
        n.anchor !== undefined &&
        n.callId === call.decision.callId &&
        (n.receiptId === undefined || n.receiptId === call.decision.receiptId),
    )?.anchor;
  const splices = open.flatMap((call): ReviewerSplice[] => {
    if (call.kind !== 'reviewer') return [];
    const anchor = anchorOf(call);
    return [{ held: call.held, turn: call.turn, ...(anchor !== undefined && { anchor }) }];
  });
  return { ...(run && { run: { decision: run.decision, call: run.call } }), splices };
}
