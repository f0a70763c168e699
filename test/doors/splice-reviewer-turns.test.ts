import { describe, expect, it } from 'vitest';
import type { ToolTurn } from '../../src/contracts/reason-request';
import { responsesRequestSchema } from '../../src/doors/openai/responses-request';
import { responsesToReason } from '../../src/doors/openai/responses-to-reason';
import { type ReviewerSplice, spliceReviewerTurns } from '../../src/doors/splice-reviewer-turns';

const receiptId = '3f0e2a6c-5b1d-4c8e-9a7f-0123456789ab';
const rejected = (id: string): ReviewerSplice => ({
  held: { id, name: 'delete_files', arguments: { path: '/srv' } },
  turn: {
    role: 'tool',
    toolCallId: id,
    name: 'delete_files',
    content: 'Not this folder.',
    status: 'rejected',
    source: 'reviewer',
  } satisfies ToolTurn,
});

// A Responses conversation two turns past the answer that held call_1: the client kept its
// mcp_approval_request and mcp_approval_response items in `input`, as the openai SDK's loop does.
const input = [
  { type: 'message', role: 'user', content: 'Clean up the reports.' },
  { type: 'message', role: 'assistant', content: 'Valve held back 1 call(s).' },
  {
    type: 'mcp_approval_request',
    id: `mcpr_${receiptId}_call_1`,
    server_label: 'valve',
    name: 'delete_files',
    arguments: '{"path":"/srv"}',
  },
  { type: 'mcp_approval_response', approval_request_id: `mcpr_${receiptId}_call_1`, approve: false },
  { type: 'message', role: 'assistant', content: 'Understood, nothing was deleted.' },
  { type: 'message', role: 'user', content: 'Then list them instead.' },
];

describe('spliceReviewerTurns', () => {
  it('anchors a rejection at the assistant turn its mcp_approval_request item followed', () => {
    const mapped = responsesToReason(responsesRequestSchema.parse({ model: 'auto', input }));
    expect(mapped.approvalAnswers).toEqual([
      { callId: 'call_1', receiptId, answer: { approve: false }, anchor: 1 },
    ]);
    const spliced = spliceReviewerTurns(mapped, [{ ...rejected('call_1'), anchor: 1 }]);
    const turns = spliced.request.conversation ?? [];
    expect(turns.map((t) => t.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user']);
    expect(turns[1]).toMatchObject({
      role: 'assistant',
      toolCalls: [{ id: 'call_1', name: 'delete_files' }],
    });
    expect(turns[2]).toMatchObject({ toolCallId: 'call_1', status: 'rejected', source: 'reviewer' });
    expect(turns[3]).toMatchObject({ role: 'assistant', content: 'Understood, nothing was deleted.' });
    expect(spliced.turnSources).toEqual([0, 1, 1, 4, 5]);
  });

  it('puts a call with no anchor into the last assistant turn, after its other results', () => {
    const mapped = responsesToReason(
      responsesRequestSchema.parse({ model: 'auto', input: input.filter((i) => i.type === 'message') }),
    );
    const turns = spliceReviewerTurns(mapped, [rejected('call_1')]).request.conversation ?? [];
    expect(turns.map((t) => t.role)).toEqual(['user', 'assistant', 'assistant', 'tool', 'user']);
    expect(turns[2]).toMatchObject({ toolCalls: [{ id: 'call_1' }] });
  });

  it('splices at two anchors without moving the earlier one', () => {
    const mapped = responsesToReason(
      responsesRequestSchema.parse({ model: 'auto', input: input.filter((i) => i.type === 'message') }),
    );
    const turns =
      spliceReviewerTurns(mapped, [
        { ...rejected('call_1'), anchor: 1 },
        { ...rejected('call_2'), anchor: 2 },
      ]).request.conversation ?? [];
    expect(turns.map((t) => (t.role === 'tool' ? `tool:${t.toolCallId}` : t.role))).toEqual([
      'user',
      'assistant',
      'tool:call_1',
      'assistant',
      'tool:call_2',
      'user',
    ]);
  });

  it('falls back to the last assistant turn when an anchor names no assistant turn', () => {
    const mapped = responsesToReason(
      responsesRequestSchema.parse({ model: 'auto', input: input.filter((i) => i.type === 'message') }),
    );
    const turns =
      spliceReviewerTurns(mapped, [{ ...rejected('call_1'), anchor: 0 }]).request.conversation ?? [];
    expect(turns[2]).toMatchObject({ role: 'assistant', toolCalls: [{ id: 'call_1' }] });
  });
});
