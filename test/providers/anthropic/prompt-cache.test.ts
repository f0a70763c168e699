import { describe, expect, it } from 'vitest';
import type { ReasonRequest } from '../../../src/contracts/reason-request';
import type { ModelRequest } from '../../../src/model/model-request';
import { renderPrompt } from '../../../src/prompt/render-prompt';
import { anthropicAdapter } from '../../../src/providers/anthropic/anthropic-adapter';
import { openaiAdapter } from '../../../src/providers/openai/openai-adapter';
import { systemText } from '../../../src/providers/shared/message-text';
import { callOptions } from '../fake-fetch';

// Anthropic caches a prompt's prefix in the order tools, system, messages, up to and including a block
// marked with `cache_control` (https://platform.claude.com/docs/en/build-with-claude/prompt-caching).
// Valve marks only the end of the tools and the end of the caller's instructions: the bytes after them
// carry this request's nonce and canary.

const nonce = '7c2e0b5d9a14f8e36b1d4a0c2f9e7d51';
const canary = 'c4f1a9e27b3d8e05';
const request: ReasonRequest = {
  task: 'summarize',
  instructions: 'Summarize the customer ticket in one sentence for the support lead.',
  context: [
    { label: 'refund policy', trust: 'trusted', privacy: 'internal', content: 'Refunds need a receipt.' },
    { label: 'ticket', trust: 'untrusted', privacy: 'internal', content: 'My order never came.' },
  ],
};
const tools: ModelRequest['tools'] = [
  { name: 'lookup_order', input_schema: { type: 'object' } },
  { name: 'refund', description: 'Refunds an order.', input_schema: { type: 'object' }, cache: true },
];

function wire(given: ReasonRequest, extra: Partial<ModelRequest> = {}) {
  const prompt = renderPrompt(given, { nonce, canary });
  const modelRequest: ModelRequest = { messages: prompt.messages, ...extra };
  return {
    prompt,
    anthropic: anthropicAdapter.toWireBody?.(modelRequest, callOptions(fetch)) as Record<string, unknown>,
    openai: openaiAdapter.toWireBody?.(modelRequest, callOptions(fetch)) as {
      messages: { role: string; content: unknown }[];
    },
  };
}

const joined = (system: unknown) => (system as { text: string }[]).map((block) => block.text).join('');

describe('anthropic adapter: prompt-cache breakpoints', () => {
  it('sends system as text blocks joining to the same text, the instructions ending with cache_control', () => {
    const uncached = wire(request).anthropic.system as string;
    const { anthropic, openai, prompt } = wire({ ...request, cache: { instructions: true } });
    expect(anthropic.system).toEqual([
      { type: 'text', text: request.instructions, cache_control: { type: 'ephemeral' } },
      { type: 'text', text: uncached.slice(request.instructions.length) },
    ]);
    // The same bytes every provider and the trust rendering see, split only where the mark goes.
    expect(joined(anthropic.system)).toBe(uncached);
    expect(systemText(prompt.messages)).toBe(uncached);
    expect(openai.messages[0]).toEqual({ role: 'system', content: uncached });
    expect((anthropic.system as { text: string }[])[1]?.text).toMatch(/^\n\n<data-/);
    expect(prompt.warnings).toEqual([]);
  });

  it('puts no breakpoint in the messages: every region after the instructions is this request’s own', () => {
    const { anthropic } = wire({ ...request, cache: { instructions: true } });
    expect(JSON.stringify(anthropic.messages)).not.toContain('cache_control');
  });

  it('marks the tool the request marks, before the json_output tool Valve adds', () => {
    const { anthropic } = wire(request, { tools, output: { schema: { type: 'object' } } });
    expect(anthropic.tools).toEqual([
      { name: 'lookup_order', input_schema: { type: 'object' } },
      {
        name: 'refund',
        description: 'Refunds an order.',
        input_schema: { type: 'object' },
        cache_control: { type: 'ephemeral' },
      },
      { name: 'json_output', description: expect.any(String), input_schema: { type: 'object' } },
    ]);
    // Without a mark on its instructions, system stays the one string it always was.
    expect(typeof anthropic.system).toBe('string');
  });

  it('drops the instructions breakpoint, with a warning, where the instructions do not open the system channel', () => {
    for (const layout of ['after-data', 'data-turn'] as const) {
      const prompt = renderPrompt({ ...request, cache: { instructions: true } }, { nonce, canary, layout });
      const body = anthropicAdapter.toWireBody?.({ messages: prompt.messages }, callOptions(fetch)) as Record<
        string,
        unknown
      >;
      expect(typeof body.system).toBe('string');
      expect(JSON.stringify(body)).not.toContain('cache_control');
      expect(prompt.warnings).toEqual([
        {
          code: 'prompt.cache_dropped',
          message: expect.stringContaining(`in the ${layout} layout they come after the data`),
        },
      ]);
    }
    const empty = renderPrompt(
      { ...request, instructions: '', cache: { instructions: true } },
      { nonce, canary },
    );
    expect(empty.warnings.map((w) => w.message)).toEqual([
      expect.stringContaining('the request has no instructions'),
    ]);
  });
});
