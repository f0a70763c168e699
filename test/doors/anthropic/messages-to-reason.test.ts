import { describe, expect, it } from 'vitest';
import { messagesRequestSchema } from '../../../src/doors/anthropic/messages-request';
import { messagesToReason } from '../../../src/doors/anthropic/messages-to-reason';
import { ignoredParams } from '../../../src/doors/anthropic/request-notes';

// The Messages API body → Reason request mapping, rule by rule (docs/anthropic-door.md "Every field").

const base = { model: 'auto', max_tokens: 1024, messages: [{ role: 'user', content: 'Hi' }] };
const map = (extra: Record<string, unknown>, model = 'auto') =>
  messagesToReason(messagesRequestSchema.parse({ ...base, ...extra }), model).request;

describe('messagesToReason', () => {
  it('maps thinking: enabled to a budget, disabled to off, adaptive to nothing asked', () => {
    expect(map({ thinking: { type: 'enabled', budget_tokens: 2048 } }).reasoning).toEqual({
      budgetTokens: 2048,
    });
    expect(map({ thinking: { type: 'disabled' } }).reasoning).toEqual({ enabled: false });
    expect(map({ thinking: { type: 'adaptive' } }).reasoning).toBeUndefined();
    expect(map({ output_config: { effort: 'high' } }).reasoning).toBeUndefined();
  });

  it('names the effort and max_tokens it does not apply in warnings', () => {
    const body = messagesRequestSchema.parse({
      ...base,
      output_config: { effort: 'max' },
      metadata: { user_id: 'u1' },
    });
    expect(ignoredParams(body).map((w) => w.message.split(':')[0])).toEqual([
      'Valve did not apply max_tokens',
      'Valve did not apply metadata.user_id',
      'Valve did not apply output_config.effort',
    ]);
  });

  it('maps tool_choice and disable_parallel_tool_use', () => {
    const tools = [{ name: 'f', input_schema: { type: 'object' } }];
    expect(map({ tools, tool_choice: { type: 'any' } }).toolChoice).toBe('required');
    expect(map({ tools, tool_choice: { type: 'none' } }).toolChoice).toBe('none');
    expect(map({ tools, tool_choice: { type: 'tool', name: 'f' } }).toolChoice).toEqual({ name: 'f' });
    expect(
      map({ tools, tool_choice: { type: 'auto', disable_parallel_tool_use: true } }).parallelToolCalls,
    ).toBe(false);
    expect(() => map({ tools, tool_choice: { type: 'tool', name: 'g' } })).toThrow(
      "Invalid 'tool_choice.name'",
    );
  });

  it('maps temperature, top_p and stop_sequences to sampling, and refuses a fifth stop sequence', () => {
    expect(map({ temperature: 0.2, top_p: 0.9, stop_sequences: ['END'] }).sampling).toEqual({
      temperature: 0.2,
      topP: 0.9,
      stop: ['END'],
    });
    expect(() => map({ stop_sequences: ['a', 'b', 'c', 'd', 'e'] })).toThrow("Invalid 'stop_sequences'");
  });

  it('pins a catalog model and maps a JSON output format', () => {
    const request = map(
      { output_config: { format: { type: 'json_schema', schema: { type: 'object' } } } },
      'sim/fast',
    );
    expect(request.modelPolicy).toEqual({ pinned: { provider: 'sim', model: 'fast' }, allowFallback: false });
    expect(request.output).toEqual({ format: 'json', schema: { type: 'object' } });
    // max_tokens is read, not applied: no maxOutputTokens of the client's.
    expect(request.modelPolicy?.maxOutputTokens).toBeUndefined();
  });

  it('reads a plain-text document as text of the user turn, after its title', () => {
    const request = map({
      messages: [
        {
          role: 'user',
          content: [
            {
              type: 'document',
              title: 'Notes',
              source: { type: 'text', media_type: 'text/plain', data: 'Line one.' },
            },
            { type: 'text', text: 'Summarize.' },
          ],
        },
      ],
    });
    expect(request.conversation).toEqual([{ role: 'user', content: 'Notes\nLine one.\nSummarize.' }]);
  });

  it('refuses a block a message cannot carry, naming it', () => {
    expect(() =>
      map({
        messages: [
          {
            role: 'assistant',
            content: [{ type: 'server_tool_use', id: 'x', name: 'web_search', input: {} }],
          },
        ],
      }),
    ).toThrow("Invalid 'messages[0].content[0]'");
  });
});
