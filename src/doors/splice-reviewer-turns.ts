import type { ConversationTurn, ToolTurn } from '../contracts/reason-request';
import type { DoorRequest } from './pipeline-request';

// A reject or respond at a door (docs/approvals.md "At the doors"): the client never got the held call,
// so its transcript lacks both the call and an answer to it. The door puts the call back into the
// assistant turn of the answer that held it — the turn its `mcp_approval_request` item followed, when
// the request sent it back, else the last assistant turn — and the reviewer's tool turn after that
// turn's other results, so the model reads the rejection where its provider carries a tool's error.
// Anchored at its own turn, a rejection kept in later requests stays where it happened.

export interface ReviewerSplice {
  held: { id: string; name: string; arguments: Record<string, unknown> };
  turn: ToolTurn;
  /** The index of the assistant turn the call belongs to, when the request says. */
  anchor?: number;
}

export function spliceReviewerTurns(door: DoorRequest, splices: readonly ReviewerSplice[]): DoorRequest {
  if (splices.length === 0) return door;
  const turns = [...(door.request.conversation ?? [])];
  const sources = [...door.turnSources];
  const lastAssistant = turns.findLastIndex((turn) => turn.role === 'assistant');
  const targetOf = (splice: ReviewerSplice) =>
    splice.anchor !== undefined && turns[splice.anchor]?.role === 'assistant' ? splice.anchor : lastAssistant;
  const byTarget = new Map<number, ReviewerSplice[]>();
  for (const splice of splices) {
    const target = targetOf(splice);
    byTarget.set(target, [...(byTarget.get(target) ?? []), splice]);
  }
  // From the last target back, so an insertion never moves a target still to come.
  for (const [at, group] of [...byTarget].sort((a, b) => b[0] - a[0])) {
    const calls = group.map((s) => s.held);
    const results = group.map((s) => s.turn);
    const turn = turns[at];
    if (turn === undefined || turn.role !== 'assistant') {
      turns.push({ role: 'assistant', toolCalls: calls }, ...results);
      sources.push(...[-1, ...results.map(() => -1)]);
      continue;
    }
    turns[at] = { ...turn, toolCalls: [...(turn.toolCalls ?? []), ...calls] };
    let end = at + 1;
    while (turns[end]?.role === 'tool') end++;
    turns.splice(end, 0, ...(results as ConversationTurn[]));
    sources.splice(end, 0, ...results.map(() => sources[at] ?? -1));
  }
  return { ...door, request: { ...door.request, conversation: turns }, turnSources: sources };
}
