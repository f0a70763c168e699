import { describe, expect, it } from 'vitest';
import { reasonRequestSchema } from '../../src/contracts/reason-request';
import { requestFieldValues } from '../../src/receipts/receipt-fields';

// The receipt commits to the request as received: tool turns inside `req.conversation`, and the
// generation settings inside `req.modelPolicy`, only when the caller gave them.

const base = reasonRequestSchema.parse({
  task: 'track',
  instructions: 'Track orders.',
  modelPolicy: { prefer: 'cost' },
});

describe('the committed request fields', () => {
  it('commits a request without generation settings exactly as before', () => {
    expect(requestFieldValues(base)['req.modelPolicy']).toEqual({ prefer: 'cost' });
    expect(requestFieldValues({ ...base, modelPolicy: undefined })['req.modelPolicy']).toBeNull();
  });

  it('commits toolChoice, parallelToolCalls and sampling with the policy', () => {
    const values = requestFieldValues({
      ...base,
      toolChoice: 'none',
      parallelToolCalls: false,
      sampling: { temperature: 0.2, seed: 7 },
    });
    expect(values['req.modelPolicy']).toEqual({
      prefer: 'cost',
      toolChoice: 'none',
      parallelToolCalls: false,
      sampling: { temperature: 0.2, seed: 7 },
    });
    const otherSeed = requestFieldValues({ ...base, sampling: { temperature: 0.2, seed: 8 } });
    expect(otherSeed['req.modelPolicy']).not.toEqual(values['req.modelPolicy']);
    expect(
      requestFieldValues({ ...base, modelPolicy: undefined, sampling: { topP: 1 } })['req.modelPolicy'],
    ).toEqual({ sampling: { topP: 1 } });
  });

  it('commits the cache breakpoints with the policy, only when given', () => {
    const values = requestFieldValues({ ...base, cache: { tools: true, instructions: true } });
    expect(values['req.modelPolicy']).toEqual({
      prefer: 'cost',
      cache: { tools: true, instructions: true },
    });
    expect(requestFieldValues({ ...base, cache: { tools: true } })['req.modelPolicy']).not.toEqual(
      values['req.modelPolicy'],
    );
  });

  it('commits tool turns as part of the conversation', () => {
    const conversation = [
      { role: 'assistant' as const, toolCalls: [{ id: 'call_1', name: 'lookup', arguments: { order: 42 } }] },
      { role: 'tool' as const, toolCallId: 'call_1', content: { status: 'shipped' } },
    ];
    expect(requestFieldValues({ ...base, conversation })['req.conversation']).toEqual(conversation);
  });
});
