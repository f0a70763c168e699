import type { ReasonRequest } from '../contracts/reason-request';
import type { ReasonResponse, UnsignedResponse } from '../contracts/reason-response';
import type { IssueReceipt } from '../issuance/issue-receipt';
import type { GateToolCalls } from './gate-tool-calls';

/** Gates the answer's tool calls, issues its receipt over the gated answer, then keeps what was held. */
export async function issueAnswer(
  request: ReasonRequest,
  answer: UnsignedResponse,
  deps: { issueReceipt: IssueReceipt; gateToolCalls?: GateToolCalls },
): Promise<ReasonResponse> {
  const gated = deps.gateToolCalls ? await deps.gateToolCalls(request, answer) : undefined;
  const issued = gated?.answer ?? answer;
  const receipt = await deps.issueReceipt(request, issued);
  await gated?.hold();
  return { ...issued, receipt };
}
