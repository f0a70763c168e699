import { describe, expect, it } from 'vitest';
import { type ReasonRequest, reasonRequestSchema } from '../../src/contracts/reason-request';
import { privacyOf } from '../../src/reason/derive-needs';
import { createKey, reason } from '../helpers/api';

// Planning takes the most sensitive privacy level of any part of the request: context items, each
// conversation turn, and for the instructions and unlabelled turns the request's `privacy`, else the
// deployment default (DEFAULT_PRIVACY, `internal` unless the operator says otherwise).

function request(fields: Record<string, unknown>): ReasonRequest {
  return reasonRequestSchema.parse({ task: 'answer', instructions: 'Answer the user.', ...fields });
}

describe('privacyOf', () => {
  it('takes the deployment default for a request that labels nothing', () => {
    expect(privacyOf(request({}), 'internal')).toBe('internal');
    expect(privacyOf(request({}), 'public')).toBe('public');
  });

  it('takes the request’s own privacy over the default for what is unlabelled', () => {
    expect(privacyOf(request({ privacy: 'public' }), 'internal')).toBe('public');
    expect(privacyOf(request({ privacy: 'confidential' }), 'internal')).toBe('confidential');
  });

  it('takes the most sensitive turn or item, whatever the request says', () => {
    const turns = [
      { role: 'user', content: 'My diagnosis is…', privacy: 'restricted' },
      { role: 'assistant', content: 'I see.' },
    ];
    expect(privacyOf(request({ privacy: 'public', conversation: turns }), 'public')).toBe('restricted');
    const tool = [
      { role: 'assistant', toolCalls: [{ id: 'c1', name: 'lookup', arguments: {} }] },
      { role: 'tool', toolCallId: 'c1', content: 'salary: 1', privacy: 'confidential' },
    ];
    const withTool = request({
      privacy: 'public',
      conversation: tool,
      tools: [{ name: 'lookup', inputSchema: { type: 'object' } }],
    });
    expect(privacyOf(withTool, 'public')).toBe('confidential');
    const context = [{ label: 'doc', trust: 'trusted', privacy: 'confidential', content: 'x' }];
    expect(privacyOf(request({ privacy: 'public', context }), 'public')).toBe('confidential');
  });
});

describe('POST /v1/reason with a confidential turn', () => {
  it('keeps the request off a model allowed only internal data', async () => {
    const { key } = await createKey('privacy-turns', ['reason']);
    const body = {
      task: 'answer',
      instructions: 'Answer the user.',
      conversation: [{ role: 'user', content: 'What is my salary?', privacy: 'confidential' }],
      modelPolicy: { pinned: { provider: 'sim', model: 'fast' }, allowFallback: false },
    };
    const refused = await reason(key, body);
    expect(refused.status).toBe(422);
    const error = (
      (await refused.json()) as { error: { code: string; details: { excluded: { reason: string }[] } } }
    ).error;
    expect(error.code).toBe('policy.no_eligible_model');
    expect(error.details.excluded.map((e) => e.reason)).toContain('privacy');
    const unlabelled = await reason(key, { ...body, conversation: [{ role: 'user', content: 'Hello?' }] });
    expect(unlabelled.status).toBe(200);
  });
});
