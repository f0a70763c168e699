import { describe, expect, it } from 'vitest';
import { reasonRequestSchema } from '../../src/contracts/reason-request';
import { encodeReasoning } from '../../src/door/reasoning-carrier';
import { ApiError } from '../../src/errors';
import { type ChatRequest, chatRequestSchema } from '../../src/openai/chat-request';
import { chatToReason } from '../../src/openai/chat-to-reason';
import { type ResponsesRequest, responsesRequestSchema } from '../../src/openai/responses-request';
import { responsesToReason } from '../../src/openai/responses-to-reason';

// The door's carriers of reasoning state, read back: Chat's `valve.reasoning` on an assistant message,
// and a Responses `reasoning` item's `encrypted_content`, each becoming its assistant turn's `reasoning`.

const items = [
  { provider: 'anthropic', model: 'claude-sonnet-4-6', text: 'Think.', signature: 'SIG' },
  { provider: 'anthropic', model: 'claude-sonnet-4-6', redactedData: 'ENC' },
];
const call = { id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{}' } };

const chat = (body: Record<string, unknown>) =>
  chatToReason(chatRequestSchema.parse(body) as ChatRequest).request;
const responses = (input: unknown[]) =>
  responsesToReason(responsesRequestSchema.parse({ model: 'auto', input }) as ResponsesRequest).request;

function failure(run: () => unknown): { param?: string; message: string } {
  try {
    run();
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const issues = (error.details?.issues as { path: string }[] | undefined) ?? [];
    return { param: issues[0]?.path, message: error.message };
  }
  throw new Error('did not fail');
}

describe('Chat: valve.reasoning on an assistant message', () => {
  it('becomes the turn’s reasoning, and reasoning_content is display only', () => {
    const request = chat({
      model: 'auto',
      messages: [
        { role: 'user', content: 'Go.' },
        {
          role: 'assistant',
          content: null,
          refusal: null,
          tool_calls: [call],
          reasoning_content: 'Think.',
          valve: { reasoning: items },
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'ok' },
      ],
    });
    expect(request.conversation?.[1]).toEqual({
      role: 'assistant',
      toolCalls: [{ id: 'call_1', name: 'lookup', arguments: {} }],
      reasoning: items,
    });
    expect(reasonRequestSchema.safeParse(request).success).toBe(true);
  });

  it('refuses reasoning of the wrong shape, naming it', () => {
    const result = chatRequestSchema.safeParse({
      model: 'auto',
      messages: [{ role: 'assistant', content: 'x', valve: { reasoning: [{ text: 'no origin' }] } }],
    });
    expect(result.success).toBe(false);
    expect(JSON.stringify(result.error?.issues[0]?.path)).toContain('reasoning');
  });
});

describe('Responses: a reasoning item Valve gave', () => {
  const reasoningItem = {
    type: 'reasoning',
    id: 'rs_1',
    summary: [],
    encrypted_content: encodeReasoning(items),
  };
  const fn = { type: 'function_call', call_id: 'call_1', name: 'lookup', arguments: '{}' };
  const out = { type: 'function_call_output', call_id: 'call_1', output: 'ok' };

  it('goes with the call after it (OpenAI’s order) or before it (Valve’s order)', () => {
    for (const input of [
      [{ role: 'user', content: 'Go.' }, reasoningItem, fn, out],
      [{ role: 'user', content: 'Go.' }, fn, reasoningItem, out],
    ]) {
      expect(responses(input).conversation?.[1]).toEqual({
        role: 'assistant',
        toolCalls: [{ id: 'call_1', name: 'lookup', arguments: {} }],
        reasoning: items,
      });
    }
  });

  it('is a 400 when its encrypted_content is not Valve’s or was changed', () => {
    const foreign = { ...reasoningItem, encrypted_content: 'gAAAAABo-openai-encrypted' };
    expect(failure(() => responses([{ role: 'user', content: 'Go.' }, foreign, fn, out]))).toMatchObject({
      param: '/input/1/encrypted_content',
    });
    const changed = {
      ...reasoningItem,
      encrypted_content: `${reasoningItem.encrypted_content.slice(0, -4)}AAAA`,
    };
    const tampered = failure(() => responses([{ role: 'user', content: 'Go.' }, changed, fn, out]));
    expect(tampered.param).toBe('/input/1/encrypted_content');
    expect(tampered.message).toContain('was changed');
  });

  it('is a 400 when it stands next to no assistant item', () => {
    const alone = failure(() =>
      responses([{ role: 'user', content: 'Go.' }, reasoningItem, { role: 'user', content: 'Hi' }]),
    );
    expect(alone.param).toBe('/input/1');
    expect(alone.message).toContain('next to the assistant message or function_call');
  });
});
