import type { HeldApproval } from '../contracts/door-approvals';
import type { ReasonResponse, Warning } from '../contracts/reason-response';
import type { HeldBack } from './hold-back';

/** A door answer's `valve`: the signed Reason response, and the approval requests of the calls held back. */
export type DoorExtension = ReasonResponse & { approvals?: HeldApproval[] };

/** Looks up the approval requests of the calls an answer held back (their window is kept in D1). */
export type ApprovalsOf = (response: ReasonResponse, held: HeldBack) => Promise<HeldApproval[]>;

/**
 * A door's `valve` extension: the signed Reason response, exactly the shape `valve-verify disclose`
 * reads, with the door's own notes (knobs it did not apply) and one `<door>.tool_call_held` warning per
 * call held back, after the pipeline's warnings, and those calls' approval requests as `approvals`
 * (neither warnings nor approvals are committed to).
 */
export function valveExtensionOf(
  door: 'openai' | 'anthropic',
  response: ReasonResponse,
  held: HeldBack,
  notes: readonly Warning[] = [],
  approvals: readonly HeldApproval[] = [],
): DoorExtension {
  if (held.held.length === 0 && notes.length === 0) return response;
  const warnings = held.held.map((call) => ({
    code: `${door}.tool_call_held`,
    message: `Tool call ${call.id} (${call.name}) follows untrusted input and its tool is destructive: it was not handed to the client; a reviewer decides it (valve.approvals).`,
  }));
  return {
    ...response,
    warnings: [...response.warnings, ...notes, ...warnings],
    ...(approvals.length > 0 && { approvals: [...approvals] }),
  };
}
