import { type ReasonRequest, reasonRequestSchema } from '../contracts/reason-request';
import { invalidParam } from './invalid-param';

// The derived request goes to the pipeline as it is: tool turns, tool choice and sampling are the
// Reason request's own fields, and the receipt commits to exactly this request.

/** Where a derived request's problem lives in the OpenAI body. */
const paramOf: Record<string, string> = { toolChoice: 'tool_choice' };

/**
 * The request as the pipeline takes it, checked against the Reason contract: the mapping keeps every
 * shape, but only the contract says what a conversation's tool turns must pair up with (each call
 * answered by the tool turns right after it), and those breaks are the caller's 400. `turns` names
 * the body member the conversation came from.
 */
export function pipelineRequestOf(request: ReasonRequest, turns: 'messages' | 'input'): ReasonRequest {
  const checked = reasonRequestSchema.safeParse(request);
  if (checked.success) return request;
  const issue = checked.error.issues[0];
  const [head, ...rest] = issue?.path ?? [];
  const where = head === 'conversation' && typeof rest[0] === 'number' ? `turn ${rest[0]} ` : '';
  const field = rest.slice(head === 'conversation' ? 1 : 0).join('.');
  throw invalidParam(
    [head === 'conversation' ? turns : (paramOf[String(head)] ?? String(head ?? turns))],
    `${where}${field === '' ? '' : `(${field}) `}${issue?.message ?? 'does not map to a Reason request'}`,
  );
}
