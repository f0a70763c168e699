import { invalidParam, type ParamPath } from '../invalid-param';
import { approvalRequestIdOf } from './responses-response';

// OpenAI's `mcp_approval_response` input item, naming one of Valve's `mcp_approval_request` items: the
// held call it answers, and the answer, which Valve checks against the reviewer's recorded decision.

export interface ApprovalAnswer {
  callId: string;
  receiptId: string;
  answer: { approve: boolean; reason?: string };
  /** The conversation turn (an assistant turn) its `mcp_approval_request` item followed in `input`. */
  anchor?: number;
}

const requestId = /^mcpr_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})_(.+)$/;

export function approvalAnswerOf(item: Record<string, unknown>, at: ParamPath): ApprovalAnswer {
  const id = item.approval_request_id;
  const parts = typeof id === 'string' ? requestId.exec(id) : null;
  const [, receiptId, callId] = parts ?? [];
  if (receiptId === undefined || callId === undefined)
    throw invalidParam(
      [...at, 'approval_request_id'],
      `must name an mcp_approval_request item of Valve's (${approvalRequestIdOf('<receiptId>', '<callId>')})`,
    );
  if (typeof item.approve !== 'boolean') throw invalidParam([...at, 'approve'], 'must be true or false');
  const reason = item.reason;
  if (reason != null && typeof reason !== 'string')
    throw invalidParam([...at, 'reason'], 'must be a string or null');
  return {
    callId,
    receiptId,
    answer: { approve: item.approve, ...(typeof reason === 'string' && { reason }) },
  };
}
