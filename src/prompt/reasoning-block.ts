import type { ReasoningItem } from '../contracts/reason-request';
import type { ReasoningBlock } from '../model/message';

/** An assistant turn's reasoning item as the neutral block, with the model that produced it. */
export function reasoningBlockOf(item: ReasoningItem): ReasoningBlock {
  const block: ReasoningBlock = { type: 'reasoning', origin: { provider: item.provider, model: item.model } };
  if (item.text !== undefined) block.text = item.text;
  if (item.summary) block.summary = true;
  if (item.signature !== undefined) block.signature = item.signature;
  if (item.redactedData !== undefined) block.redacted = item.redactedData;
  if (item.toolCallId !== undefined) block.call_id = item.toolCallId;
  return block;
}
