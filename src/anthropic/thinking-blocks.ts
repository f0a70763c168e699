// Anthropic's thinking blocks and the neutral reasoning items the Reason API is about to carry
// (`reasoning?: ReasoningItem[]` on the response and on assistant turns). Until that lands, the door
// drops thinking blocks with a warning; this file is the whole mapping, both ways, to wire in then.

/** One piece of a model's reasoning, kept for the model that produced it (the Reason contract's shape). */
export interface ReasoningItem {
  /** The catalog provider and model that produced it: only that model can read it back. */
  provider: string;
  model: string;
  text?: string;
  summary?: boolean;
  signature?: string;
  redactedData?: string;
  toolCallId?: string;
}

export interface ThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature: string;
}

export interface RedactedThinkingBlock {
  type: 'redacted_thinking';
  data: string;
}

export type AnthropicThinking = ThinkingBlock | RedactedThinkingBlock;

/**
 * An assistant message's thinking blocks as reasoning items of `from` (the model that answered the
 * turn they came back in): `thinking` keeps its text and signature byte for byte, `redacted_thinking`
 * its data.
 */
export function reasoningItemsOf(
  blocks: readonly AnthropicThinking[],
  from: { provider: string; model: string },
): ReasoningItem[] {
  return blocks.map((block) =>
    block.type === 'thinking'
      ? { provider: from.provider, model: from.model, text: block.thinking, signature: block.signature }
      : { provider: from.provider, model: from.model, redactedData: block.data },
  );
}

/**
 * Reasoning items as Anthropic's blocks, in their order: one with redacted data is `redacted_thinking`,
 * any other `thinking` (its signature, or '' when the model that produced it gave none). An item of
 * neither text nor data says nothing a client can show and is left out.
 */
export function thinkingBlocksOf(items: readonly ReasoningItem[]): AnthropicThinking[] {
  return items.flatMap((item): AnthropicThinking[] => {
    if (item.redactedData !== undefined) return [{ type: 'redacted_thinking', data: item.redactedData }];
    if (item.text === undefined && item.signature === undefined) return [];
    return [{ type: 'thinking', thinking: item.text ?? '', signature: item.signature ?? '' }];
  });
}
