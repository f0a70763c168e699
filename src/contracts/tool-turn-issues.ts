// The pairing rules of tool turns, which a JSON Schema cannot say: providers reject a tool call without
// its result and a result without its call, and Valve always ends the prompt with a user turn, so every
// call must be answered, by tool turns that directly follow the assistant turn that made it.

interface Turn {
  role: 'user' | 'assistant' | 'tool';
  toolCalls?: { id: string; name: string }[];
  toolCallId?: string;
  name?: string;
}

export interface TurnIssue {
  path: (string | number)[];
  message: string;
}

/** Where the conversation's tool turns break the pairing rules; empty when they keep them. */
export function toolTurnIssues(turns: readonly Turn[]): TurnIssue[] {
  const issues: TurnIssue[] = [];
  const seen = new Set<string>();
  // The calls of the last assistant turn that called tools, while its results are being read.
  let open = new Map<string, { name: string; path: (string | number)[] }>();
  let openTurn = -1;
  const closeOpen = () => {
    for (const call of open.values()) {
      issues.push({
        path: call.path,
        message: `is not answered: a tool turn with this toolCallId must follow assistant turn ${openTurn}`,
      });
    }
    open = new Map();
  };
  turns.forEach((turn, index) => {
    if (turn.role === 'tool') {
      const id = turn.toolCallId ?? '';
      const call = open.get(id);
      if (!call) {
        issues.push({
          path: [index, 'toolCallId'],
          message: seen.has(id)
            ? 'answers a tool call that is already answered or not directly before this turn'
            : 'answers no tool call of an earlier assistant turn',
        });
        return;
      }
      if (turn.name !== undefined && turn.name !== call.name) {
        issues.push({
          path: [index, 'name'],
          message: `is not ${call.name}, the name of the call it answers`,
        });
      }
      open.delete(id);
      return;
    }
    closeOpen();
    if (turn.role !== 'assistant') return;
    (turn.toolCalls ?? []).forEach((call, position) => {
      const path = [index, 'toolCalls', position, 'id'];
      if (seen.has(call.id)) {
        issues.push({ path, message: 'repeats the id of another tool call' });
        return;
      }
      seen.add(call.id);
      open.set(call.id, { name: call.name, path });
    });
    openTurn = index;
  });
  closeOpen();
  return issues;
}
