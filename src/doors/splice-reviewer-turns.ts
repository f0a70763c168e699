import type { ConversationTurn, ToolTurn } from '../contracts/reason-request';
import type { DoorRequest } from './pipeline-request';

// A reject or respond at a door (docs/approvals.md "At the doors"): the client never got the held call,
// so its transcript lacks both the call and an answer to it. The door puts the call back into the last
// assistant turn and the reviewer's tool turn after that turn's other results, so the model reads the
// rejection where its provider carries a tool's error.

export interface ReviewerSplice {
  held: { id: string; name: string; arguments: Record<string, unknown> };
  turn: ToolTurn;
}

export function spliceReviewerTurns(door: DoorRequest, splices: readonly ReviewerSplice[]): DoorRequest {
  if (splices.length === 0) return door;
  const turns = [...(door.request.conversation ?? [])];
  const sources = [...door.turnSources];
  const calls = splices.map((s) => s.held);
  const results = splices.map((s) => s.turn);
  const at = turns.findLastIndex((turn) => turn.role === 'assistant');
  const last = turns[at];
  if (last === undefined || last.role !== 'assistant') {
    turns.push({ role: 'assistant', toolCalls: calls }, ...results);
    sources.push(...[-1, ...results.map(() => -1)]);
  } else {
    turns[at] = { ...last, toolCalls: [...(last.toolCalls ?? []), ...calls] };
    let end = at + 1;
    while (turns[end]?.role === 'tool') end++;
    turns.splice(end, 0, ...(results as ConversationTurn[]));
    sources.splice(end, 0, ...results.map(() => sources[at] ?? -1));
  }
  return { ...door, request: { ...door.request, conversation: turns }, turnSources: sources };
}
