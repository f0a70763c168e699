import { describe, expect, it } from 'vitest';
import { blockFrames } from '../../../src/doors/anthropic/message-events';
import { reasoningItemsOf, thinkingBlocksOf } from '../../../src/doors/anthropic/thinking-blocks';

// Reasoning items ⇄ Anthropic's thinking blocks at the door: the text in `thinking`, the item (its
// model, its signature, the call a Gemini signature came with) in the opaque `signature` or `data`,
// so that what the client sends back is read as exactly the items the answer gave.

const from = { provider: 'anthropic', model: 'claude-sonnet-4-5' };
const items = [
  { ...from, text: 'First, the user wants…', signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3h' },
  { ...from, redactedData: 'EmwKAhgBEgy3va3pzix/LafPsn4a' },
  { provider: 'gemini', model: 'gemini-3-pro-preview', signature: 'CsGem', toolCallId: 'c1' },
];
const at = (i: number) => ['messages', 1, 'content', i];
const blocks = [
  {
    type: 'thinking' as const,
    thinking: 'First, the user wants…',
    signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3h',
  },
  { type: 'redacted_thinking' as const, data: 'EmwKAhgBEgy3va3pzix/LafPsn4a' },
];

describe('thinking blocks and reasoning items', () => {
  it('gives each item as a block whose opaque field carries it, and reads the blocks back as the same items', () => {
    const written = thinkingBlocksOf(items);
    expect(written.map((b) => b.type)).toEqual(['thinking', 'redacted_thinking', 'thinking']);
    expect(written[0]).toMatchObject({ thinking: 'First, the user wants…' });
    expect(written[2]).toMatchObject({ thinking: '' });
    const read = reasoningItemsOf(written.map((block, i) => ({ block, at: at(i) })));
    expect(read).toEqual({ items, foreign: 0 });
  });

  it('counts thinking Valve did not give as foreign, and refuses a signature it gave that was changed', () => {
    expect(reasoningItemsOf(blocks.map((block, i) => ({ block, at: at(i) })))).toEqual({
      items: [],
      foreign: 2,
    });
    const [given] = thinkingBlocksOf(items.slice(0, 1)) as [
      { type: 'thinking'; thinking: string; signature: string },
    ];
    const changed = { ...given, signature: `${given.signature.slice(0, -6)}AAAAAA` };
    expect(() => reasoningItemsOf([{ block: changed, at: at(0) }])).toThrow(
      /messages\[1\]\.content\[0\]\.signature/,
    );
  });

  it('drops an item with neither text, state nor data', () => {
    expect(thinkingBlocksOf([{ ...from, summary: true }])).toEqual([]);
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
