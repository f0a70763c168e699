import type { HeldApproval } from '../../contracts/door-approvals';
import type { ReasonResponse, ToolCall, Warning } from '../../contracts/reason-response';
import type { HeldBack } from '../hold-back';
import { valveExtensionOf } from '../valve-extension';
import { type AnthropicThinking, thinkingBlocksOf } from './thinking-blocks';

// A signed Reason response in the shape of an Anthropic `message`. The message id embeds the receipt
// id (`msg_<receiptId>`); the whole Reason response (receipt, cost, model, decision, warnings) rides
// in `valve`, which the SDKs keep and do not read.

export type StopReason = 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use' | 'refusal';

export function messageIdOf(receiptId: string): string {
  return `msg_${receiptId}`;
}

export function modelIdOf(response: Pick<ReasonResponse, 'model'>): string {
  return `${response.model.provider}/${response.model.model}`;
}

/** Valve's finish reason as Anthropic's stop reason; `other` and `error` have none and read as `end_turn`. */
export function stopReasonOf(response: Pick<ReasonResponse, 'finishReason'>, held: HeldBack): StopReason {
  switch (response.finishReason) {
    case 'tool_calls':
      return held.visible.length > 0 ? 'tool_use' : 'end_turn';
    case 'length':
      return 'max_tokens';
    case 'content_filter':
      return 'refusal';
    default:
      return 'end_turn';
  }
}

/**
 * Anthropic counts input apart from the cache: `input_tokens` are the tokens read past the last cache
 * breakpoint, `cache_read_input_tokens` those read from it. Valve's input counts both.
 */
export function usageOf(response: Pick<ReasonResponse, 'usage'>) {
  const { inputTokens, outputTokens, cacheReadTokens } = response.usage;
  return {
    input_tokens: Math.max(0, inputTokens - cacheReadTokens),
    output_tokens: outputTokens,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: cacheReadTokens,
  };
}

/** The answer's text: the text answer, the JSON answer as a string, or the model's refusal; '' for none. */
export function answerTextOf(output: ReasonResponse['output']): string {
  if (output.format === 'text') return output.text;
  if (output.format === 'refusal') return output.refusal;
  return output.value === null ? '' : JSON.stringify(output.value);
}

export interface TextBlock {
  type: 'text';
  text: string;
}

export interface ToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: Record<string, unknown>;
}

export type ContentBlock = AnthropicThinking | TextBlock | ToolUseBlock;

export function toolUseOf(call: ToolCall): ToolUseBlock {
  return { type: 'tool_use', id: call.id, name: call.name, input: call.arguments };
}

/**
 * The message's blocks: thinking first (when the response carries the model's reasoning), then the
 * text, then the note of the calls held back (a text block, which every Anthropic client shows), then
 * the calls handed over.
 */
export function contentOf(response: ReasonResponse, held: HeldBack): ContentBlock[] {
  const blocks: ContentBlock[] = [...thinkingBlocksOf(response.reasoning ?? [])];
  const text = answerTextOf(response.output);
  if (text !== '') blocks.push({ type: 'text', text });
  if (held.note !== undefined) blocks.push({ type: 'text', text: held.note });
  blocks.push(...held.visible.map(toolUseOf));
  return blocks;
}

export function messageOf(
  response: ReasonResponse,
  held: HeldBack,
  notes: readonly Warning[] = [],
  approvals: readonly HeldApproval[] = [],
) {
  return {
    id: messageIdOf(response.receiptId),
    type: 'message' as const,
    role: 'assistant' as const,
    model: modelIdOf(response),
    content: contentOf(response, held),
    stop_reason: stopReasonOf(response, held),
    stop_sequence: null,
    usage: usageOf(response),
    valve: valveExtensionOf('anthropic', response, held, notes, approvals),
  };
}
