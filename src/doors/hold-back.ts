import type { ReasonRequest } from '../contracts/reason-request';
import type { ReasonResponse, ToolCall } from '../contracts/reason-response';

// OpenAI and Anthropic clients do not read Valve's `approval` field: a tainted call to a `destructive`
// tool handed to them would simply run. So the door holds such calls back (they stay in the signed
// Reason response under `valve`, and wait for a reviewer) unless the caller's
// `valve.allowTaintedDestructive` says to hand them over.

export interface HeldBack {
  /** The calls handed to the client. */
  visible: ToolCall[];
  held: ToolCall[];
  /** The sentence the answer carries when calls were held back. */
  note?: string;
}

export function holdBack(
  response: Pick<ReasonResponse, 'toolCalls'>,
  tools: ReasonRequest['tools'],
  allowTaintedDestructive: boolean,
): HeldBack {
  const destructive = new Set(
    (tools ?? []).filter((tool) => tool.annotations?.destructive === true).map((tool) => tool.name),
  );
  const held = allowTaintedDestructive
    ? []
    : response.toolCalls.filter((call) => call.tainted && destructive.has(call.name));
  if (held.length === 0) return { visible: response.toolCalls, held };
  const names = [...new Set(held.map((call) => call.name))].join(', ');
  return {
    visible: response.toolCalls.filter((call) => !held.includes(call)),
    held,
    note: `Valve held back ${held.length} call(s) to the destructive tool(s) ${names}: they follow untrusted input and need a reviewer's decision (see valve.approvals).`,
  };
}
