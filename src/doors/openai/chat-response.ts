import type { HeldApproval } from '../../contracts/door-approvals';
import type { ReasonResponse, Warning } from '../../contracts/reason-response';
import type { HeldBack } from '../hold-back';
import { valveExtensionOf } from '../valve-extension';
import { chatReasoningOf } from './reasoning-output';
import { chatAnnotationsOf } from './url-citations';

// A signed Reason response in the exact shape of an OpenAI `chat.completion`. The receipt id is the
// completion id; the whole Reason response (receipt, cost, model, decision, warnings) rides in `valve`,
// which the SDKs ignore and keep.

export type ChatFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter';

export function finishReasonOf(response: ReasonResponse, held: HeldBack): ChatFinishReason {
  if (response.finishReason === 'tool_calls') return held.visible.length > 0 ? 'tool_calls' : 'stop';
  if (response.finishReason === 'length' || response.finishReason === 'content_filter')
    return response.finishReason;
  // `other` has no OpenAI spelling; the raw reason stays in valve.finishReason.
  return 'stop';
}

export function completionIdOf(receiptId: string): string {
  return `chatcmpl-${receiptId}`;
}

export function modelIdOf(response: Pick<ReasonResponse, 'model'>): string {
  return `${response.model.provider}/${response.model.model}`;
}

/** The answer as message text: the text, or the JSON value as a string; '' for none or a refusal. */
export function answerTextOf(output: ReasonResponse['output']): string {
  if (output.format === 'text') return output.text;
  if (output.format === 'refusal' || output.value === null) return '';
  return JSON.stringify(output.value);
}

/** The message text: the text answer, or the JSON answer as a string; null when there is none. */
export function contentOf(response: ReasonResponse, held: HeldBack): string | null {
  const text = answerTextOf(response.output);
  if (text !== '') return text;
  return held.note ?? null;
}

/** The model's refusal, which OpenAI carries in `refusal` beside a null `content`; null when it answered. */
export function refusalTextOf(response: Pick<ReasonResponse, 'output'>): string | null {
  return response.output.format === 'refusal' ? response.output.refusal : null;
}

export function chatUsageOf(response: Pick<ReasonResponse, 'usage'>) {
  const { inputTokens, outputTokens, reasoningTokens, cacheReadTokens } = response.usage;
  return {
    prompt_tokens: inputTokens,
    completion_tokens: outputTokens,
    total_tokens: inputTokens + outputTokens,
    prompt_tokens_details: { cached_tokens: cacheReadTokens },
    completion_tokens_details: { reasoning_tokens: reasoningTokens },
  };
}

export function wireToolCallsOf(held: HeldBack) {
  return held.visible.map((call) => ({
    id: call.id,
    type: 'function' as const,
    function: { name: call.name, arguments: JSON.stringify(call.arguments) },
  }));
}

export function chatCompletionOf(
  response: ReasonResponse,
  held: HeldBack,
  createdSec: number,
  notes: readonly Warning[] = [],
  approvals: readonly HeldApproval[] = [],
) {
  const toolCalls = wireToolCallsOf(held);
  const content = contentOf(response, held);
  const output = response.output;
  const annotations =
    output.format === 'text' && content === output.text ? chatAnnotationsOf(output.annotations, content) : [];
  return {
    id: completionIdOf(response.receiptId),
    object: 'chat.completion' as const,
    created: createdSec,
    model: modelIdOf(response),
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant' as const,
          content,
          refusal: refusalTextOf(response),
          ...(annotations.length > 0 && { annotations }),
          ...(toolCalls.length > 0 && { tool_calls: toolCalls }),
          ...chatReasoningOf(response),
        },
        finish_reason: finishReasonOf(response, held),
        logprobs: null,
      },
    ],
    usage: chatUsageOf(response),
    system_fingerprint: null,
    valve: valveExtensionOf('openai', response, held, notes, approvals),
  };
}
