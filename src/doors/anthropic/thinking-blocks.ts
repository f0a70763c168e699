import type { ReasoningItem } from '../../contracts/reason-request';
import type { ParamPath } from '../invalid-param';
import { decodeReasoning, encodeReasoning, isValveReasoning } from '../reasoning-carrier';

// Anthropic's thinking blocks ⇄ the Reason answer's and turns' reasoning items (docs/anthropic-door.md
// "Thinking"). Whatever model answered, its reasoning reaches an Anthropic client as thinking blocks:
// the text in `thinking`, and the item itself — which model made it, its signature, the call a Gemini
// signature came with — in the opaque `signature` (`data` for redacted thinking), which every client
// sends back unchanged. Read back, a block becomes the item again, for the model that made it alone.

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

/** Reasoning items as Anthropic's blocks, in their order; an item of no text, state or data is left out. */
export function thinkingBlocksOf(items: readonly ReasoningItem[]): AnthropicThinking[] {
  return items.flatMap((item): AnthropicThinking[] => {
    if (item.redactedData !== undefined)
      return [{ type: 'redacted_thinking', data: encodeReasoning([item]) }];
    if (item.text === undefined && item.signature === undefined) return [];
    const { text, ...state } = item;
    return [{ type: 'thinking', thinking: text ?? '', signature: encodeReasoning([state]) }];
  });
}

/**
 * The reasoning items of the thinking blocks an assistant message sent back: those Valve gave, read
 * back exactly (a block whose state was changed is a 400 naming it), and a count of the others —
 * thinking from elsewhere, which names no model Valve could send it to.
 */
export function reasoningItemsOf(blocks: readonly { block: AnthropicThinking; at: ParamPath }[]): {
  items: ReasoningItem[];
  foreign: number;
} {
  const items: ReasoningItem[] = [];
  let foreign = 0;
  for (const { block, at } of blocks) {
    const state = block.type === 'thinking' ? block.signature : block.data;
    if (!isValveReasoning(state)) {
      foreign++;
      continue;
    }
    const field = block.type === 'thinking' ? 'signature' : 'data';
    for (const item of decodeReasoning(state, [...at, field])) {
      items.push(
        block.type === 'thinking' && block.thinking !== '' ? { ...item, text: block.thinking } : item,
      );
    }
  }
  return { items, foreign };
}
