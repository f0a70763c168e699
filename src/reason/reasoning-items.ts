import type { ReasoningItem } from '../contracts/reason-request';
import type { ContentBlock } from '../model/message';

/**
 * The answer's reasoning as the Reason response gives it: each reasoning block of the model's message,
 * in order, named by the catalog model that produced it, so that the caller can send it back in the
 * assistant turn that continues and Valve replays it to that model alone.
 */
export function reasoningItemsOf(
  content: readonly ContentBlock[],
  origin: { provider: string; model: string },
): ReasoningItem[] {
  return content.flatMap((block): ReasoningItem[] => {
    if (block.type !== 'reasoning') return [];
    const item: ReasoningItem = { provider: origin.provider, model: origin.model };
    if (block.text !== undefined && block.text !== '') item.text = block.text;
    if (block.summary) item.summary = true;
    if (block.signature !== undefined && block.signature !== '') item.signature = block.signature;
    if (block.redacted !== undefined && block.redacted !== '') item.redactedData = block.redacted;
    if (block.call_id !== undefined) item.toolCallId = block.call_id;
    const carries = item.text ?? item.signature ?? item.redactedData;
    return carries === undefined ? [] : [item];
  });
}
