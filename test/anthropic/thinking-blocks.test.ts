import { describe, expect, it } from 'vitest';
import { blockFrames } from '../../src/anthropic/message-events';
import { reasoningItemsOf, thinkingBlocksOf } from '../../src/anthropic/thinking-blocks';

// Anthropic's thinking blocks ⇄ the Reason contract's ReasoningItem[], kept apart until the contract
// carries them: signatures and redacted data go through byte for byte, both ways.

const from = { provider: 'anthropic', model: 'claude-sonnet-4-5' };
const blocks = [
  {
    type: 'thinking' as const,
    thinking: 'First, the user wants…',
    signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3h',
  },
  { type: 'redacted_thinking' as const, data: 'EmwKAhgBEgy3va3pzix/LafPsn4a' },
];

describe('thinking blocks and reasoning items', () => {
  it('reads thinking as {text, signature} and redacted_thinking as {redactedData}, of the model given', () => {
    expect(reasoningItemsOf(blocks, from)).toEqual([
      { ...from, text: 'First, the user wants…', signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3h' },
      { ...from, redactedData: 'EmwKAhgBEgy3va3pzix/LafPsn4a' },
    ]);
  });

  it('writes the items back as the same blocks, in their order', () => {
    expect(thinkingBlocksOf(reasoningItemsOf(blocks, from))).toEqual(blocks);
  });

  it('writes a summary without a signature as a thinking block with an empty signature, and drops an empty item', () => {
    expect(
      thinkingBlocksOf([
        { ...from, text: 'Summary.', summary: true },
        { ...from, toolCallId: 'c1' },
      ]),
    ).toEqual([{ type: 'thinking', thinking: 'Summary.', signature: '' }]);
  });

  it('streams a thinking block as a thinking_delta and a signature_delta between its start and stop', () => {
    const frames = blockFrames(0, blocks[0] as (typeof blocks)[0]).map((frame) =>
      JSON.parse(frame.split('data: ')[1] ?? ''),
    );
    expect(frames).toEqual([
      {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'thinking', thinking: '', signature: '' },
      },
      {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'thinking_delta', thinking: 'First, the user wants…' },
      },
      {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'signature_delta', signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3h' },
      },
      { type: 'content_block_stop', index: 0 },
    ]);
  });
});
