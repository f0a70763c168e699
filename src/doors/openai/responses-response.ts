import type { HeldApproval } from '../../contracts/door-approvals';
import type { ReasonResponse, ToolCall } from '../../contracts/reason-response';
import type { HeldBack } from '../hold-back';
import { valveExtensionOf } from '../valve-extension';
import { contentOf, modelIdOf, refusalTextOf } from './chat-response';
import { ignoredResponsesKnobs, ignoredWarnings } from './ignored-knobs';
import { responsesReasoningItemOf } from './reasoning-output';
import type { ResponsesRequest } from './responses-request';
import { responsesAnnotationsOf } from './url-citations';

// A signed Reason response as a Responses API `response` object: a message item with the text (or the
// JSON answer as text, or a `refusal` part when the model declined), one `function_call` item per call
// handed over, one `mcp_approval_request` item per call held back for a reviewer, usage, and `valve`.

export type ResponseStatus = 'in_progress' | 'completed' | 'incomplete' | 'failed';

export const responseIdOf = (receiptId: string) => `resp_${receiptId}`;
export const messageIdOf = (receiptId: string) => `msg_${receiptId}`;
export const functionItemIdOf = (callId: string) => `fc_${callId}`;

export type MessagePart = ReturnType<typeof outputTextPart> | ReturnType<typeof refusalPart>;

export function messageItemOf(id: string, part: MessagePart, status: 'in_progress' | 'completed') {
  const content: MessagePart[] = status === 'completed' ? [part] : [];
  return { type: 'message' as const, id, status, role: 'assistant' as const, content };
}

export type OutputTextAnnotation = ReturnType<typeof responsesAnnotationsOf>[number];

export function outputTextPart(text: string, annotations: OutputTextAnnotation[] = []) {
  return { type: 'output_text' as const, text, annotations, logprobs: [] };
}

/** The model's refusal, as the Responses API carries it: a content part of its own, never output_text. */
export function refusalPart(refusal: string) {
  return { type: 'refusal' as const, refusal };
}

/** A content part's text, whichever kind it is. */
export function partTextOf(part: MessagePart): string {
  return part.type === 'refusal' ? part.refusal : part.text;
}

export function functionCallItemOf(call: HeldBack['visible'][number], status: 'in_progress' | 'completed') {
  return {
    type: 'function_call' as const,
    id: functionItemIdOf(call.id),
    call_id: call.id,
    name: call.name,
    arguments: status === 'completed' ? JSON.stringify(call.arguments) : '',
    status,
  };
}

/**
 * The id of a held call's approval request: the receipt of the answer that held it and the call's id,
 * so an `mcp_approval_response` names the call unambiguously.
 */
export const approvalRequestIdOf = (receiptId: string, callId: string) => `mcpr_${receiptId}_${callId}`;

/** A held call as OpenAI's item for a tool call that waits for approval; Valve is its "server". */
export function approvalRequestItemOf(receiptId: string, call: ToolCall) {
  return {
    type: 'mcp_approval_request' as const,
    id: approvalRequestIdOf(receiptId, call.id),
    server_label: 'valve',
    name: call.name,
    arguments: JSON.stringify(call.arguments),
  };
}

export function responsesUsageOf(response: Pick<ReasonResponse, 'usage'>) {
  const { inputTokens, outputTokens, reasoningTokens, cacheReadTokens } = response.usage;
  return {
    input_tokens: inputTokens,
    input_tokens_details: { cached_tokens: cacheReadTokens },
    output_tokens: outputTokens,
    output_tokens_details: { reasoning_tokens: reasoningTokens },
    total_tokens: inputTokens + outputTokens,
  };
}

export interface ResponseShell {
  id: string;
  model: string;
  createdSec: number;
  request: ResponsesRequest;
}

/** The members every `response` object carries, whatever its status. */
export function responseObjectOf(
  shell: ResponseShell,
  status: ResponseStatus,
  rest: Record<string, unknown> = {},
) {
  const request = shell.request;
  return {
    id: shell.id,
    object: 'response' as const,
    created_at: shell.createdSec,
    status,
    error: null,
    incomplete_details: null,
    instructions: request.instructions ?? null,
    max_output_tokens: request.max_output_tokens ?? null,
    model: shell.model,
    output: [] as unknown[],
    parallel_tool_calls: request.parallel_tool_calls ?? true,
    previous_response_id: null,
    store: false,
    temperature: request.temperature ?? null,
    top_p: request.top_p ?? null,
    tool_choice: request.tool_choice ?? 'auto',
    tools: request.tools ?? [],
    text: request.text ?? { format: { type: 'text' } },
    truncation: 'disabled',
    usage: null as unknown,
    metadata: request.metadata ?? {},
    ...rest,
  };
}

export function outputItemsOf(response: ReasonResponse, held: HeldBack) {
  const refusal = refusalTextOf(response);
  const text = contentOf(response, held);
  const output = response.output;
  const annotations =
    output.format === 'text' && text === output.text ? responsesAnnotationsOf(output.annotations, text) : [];
  const part =
    refusal !== null ? refusalPart(refusal) : text !== null ? outputTextPart(text, annotations) : undefined;
  const reasoning = responsesReasoningItemOf(response);
  return [
    ...(part ? [messageItemOf(messageIdOf(response.receiptId), part, 'completed')] : []),
    ...held.visible.map((call) => functionCallItemOf(call, 'completed')),
    ...held.held.map((call) => approvalRequestItemOf(response.receiptId, call)),
    ...(reasoning ? [reasoning] : []),
  ];
}

/** The finished `response`: completed, or incomplete when the output was cut at a limit. */
export function finishedResponseOf(
  response: ReasonResponse,
  held: HeldBack,
  shell: ResponseShell,
  cancelled = false,
  approvals: readonly HeldApproval[] = [],
) {
  // A refusal is a complete answer, as OpenAI's own refusal response is `completed`.
  const filtered = response.finishReason === 'content_filter' && response.output.format !== 'refusal';
  const cut = cancelled || response.finishReason === 'length' || filtered;
  const reason = response.finishReason === 'content_filter' ? 'content_filter' : 'max_output_tokens';
  return responseObjectOf(shell, cut ? 'incomplete' : 'completed', {
    incomplete_details: cut ? { reason } : null,
    model: modelIdOf(response),
    output: outputItemsOf(response, held),
    usage: responsesUsageOf(response),
    valve: valveExtensionOf(
      'openai',
      response,
      held,
      ignoredWarnings(ignoredResponsesKnobs(shell.request)),
      approvals,
    ),
  });
}
