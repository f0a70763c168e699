import { describe, expect, it } from 'vitest';
import { messagesRequestSchema } from '../../../src/doors/anthropic/messages-request';
import { messagesToReason } from '../../../src/doors/anthropic/messages-to-reason';

// cache_control → the Reason request's `cache` (docs/anthropic-door.md, "Prompt caching"): only the mark
// on the last tool and the one on the last instruction part end bytes that repeat from one request to
// the next; every other mark is named in an anthropic.cache_dropped warning.

const cc = { type: 'ephemeral' };
const tool = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  input_schema: { type: 'object' },
  ...extra,
});
const map = (extra: Record<string, unknown>) =>
  messagesToReason(
    messagesRequestSchema.parse({
      model: 'auto',
      max_tokens: 1024,
      messages: [{ role: 'user', content: 'Hi' }],
      ...extra,
    }),
    'auto',
  );
const codes = (notes: { code: string }[]) => notes.map((note) => note.code);

describe('cache_control at the Anthropic door', () => {
  it('keeps the marks on the last tool and the last system block, without a warning', () => {
    const { request, notes } = map({
      tools: [tool('a'), tool('b', { cache_control: cc })],
      system: [
        { type: 'text', text: 'You are a helpful agent.' },
        { type: 'text', text: 'Answer briefly.', cache_control: cc },
      ],
    });
    expect(request.cache).toEqual({ tools: true, instructions: true });
    expect(request.instructions).toBe('You are a helpful agent.\n\nAnswer briefly.');
    expect(codes(notes)).not.toContain('anthropic.cache_dropped');
  });

  it('names every mark it cannot keep: on messages, on an earlier system block or tool', () => {
    const { request, notes } = map({
      tools: [tool('a', { cache_control: cc }), tool('b')],
      system: [
        { type: 'text', text: 'You are Claude Code.', cache_control: cc },
        { type: 'text', text: 'Work carefully.', cache_control: cc },
      ],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Fix the bug.', cache_control: cc }] },
        { role: 'assistant', content: 'Done.' },
        { role: 'user', content: [{ type: 'text', text: 'Thanks.', cache_control: cc }] },
      ],
    });
    expect(request.cache).toEqual({ instructions: true });
    const dropped = notes.filter((note) => note.code === 'anthropic.cache_dropped').map((n) => n.message);
    expect(dropped).toEqual([
      expect.stringMatching(
        /^Valve sent no cache breakpoint for messages\[0\]\.content\[0\]\.cache_control, messages\[2\]\.content\[0\]\.cache_control: the messages come after/,
      ),
      expect.stringMatching(
        /^Valve sent no cache breakpoint for system\[0\]\.cache_control, tools\[0\]\.cache_control: Valve marks only/,
      ),
    ]);
  });

  it('keeps a mark on a system message when it is the last instruction part', () => {
    const { request } = map({
      system: 'Be brief.',
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'Use metric units.', cache_control: cc }] },
        { role: 'user', content: 'Hi' },
      ],
    });
    expect(request.cache).toEqual({ instructions: true });
  });

  it('places the top-level (automatic) breakpoint where bytes repeat: the tools and the instructions', () => {
    expect(map({ cache_control: cc, system: 'Be brief.', tools: [tool('a')] }).request.cache).toEqual({
      tools: true,
      instructions: true,
    });
    expect(map({ cache_control: cc }).request.cache).toBeUndefined();
  });

  it('sends no cache field without a mark, and says so when a ttl of 1h is sent as 5 minutes', () => {
    expect(map({ system: 'Be brief.' }).request).not.toHaveProperty('cache');
    const { request, notes } = map({
      system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral', ttl: '1h' } }],
    });
    expect(request.cache).toEqual({ instructions: true });
    expect(notes).toContainEqual({
      code: 'anthropic.param_ignored',
      message: expect.stringContaining('not the ttl asked for at system[0].cache_control'),
    });
  });
});
