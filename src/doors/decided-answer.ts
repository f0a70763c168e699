import type { CarriedDecision, DecidedExtension } from '../contracts/door-approvals';
import type { ToolCall } from '../contracts/reason-response';

// A continuation after a reviewer's approve or edit, answered by the door without a model: the decided
// call as a real tool call, its capability token in `valve`. No model ran, so no receipt is issued;
// the decision's audit record and its log entry are this answer's record.

export interface DecidedAnswer {
  decision: CarriedDecision;
  /** The call as decided (an edit's tool and arguments), with its capability token. */
  call: ToolCall;
}

/** Names the answer by the decision it carries out. */
export function decidedAnswerIdOf(answer: DecidedAnswer): string {
  return `approval_${answer.decision.auditSeq ?? 0}`;
}

export function decidedExtensionOf(answer: DecidedAnswer): DecidedExtension {
  const seq = answer.decision.auditSeq;
  return {
    receipt: null,
    note: `No model ran: this answer hands over tool call ${answer.call.id} as a reviewer decided it (${answer.decision.status}), so no receipt is issued; the decision's audit record${seq === null ? '' : ` (seq ${seq})`} and its log entry are its record.`,
    approval: answer.decision,
    toolCalls: [answer.call],
  };
}
