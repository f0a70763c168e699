import { describe, expect, it } from 'vitest';
import { type ReasonRequest, reasonRequestSchema } from '../../src/contracts/reason-request';
import { parseRegions } from '../../src/prompt/parse-regions';
import { renderPrompt } from '../../src/prompt/render-prompt';
import { renderToolResult } from '../../src/prompt/render-tool-result';

// A tool turn's status, error and source reach the model inside the result's untrusted region (its
// label), and a tool's maxResultChars bounds what of its result is sent, with a marker where it was cut.

const nonce = '3a9f04c1d2e5b6a7980f1e2d3c4b5a69';

function textOf(message: { content: { type: string; text?: string }[] }): string {
  return message.content[0]?.text ?? '';
}

describe('renderToolResult', () => {
  it('labels a reviewer’s rejection as the reviewer’s, with its status', () => {
    const message = renderToolResult(
      {
        callId: 'call_1',
        tool: 'delete_files',
        content: 'Not from a ticket.',
        status: 'rejected',
        source: 'reviewer',
      },
      nonce,
      'tags',
    );
    expect(message.status).toBe('rejected');
    expect(textOf(message)).toBe(
      `<data-${nonce} id="t-call_1" label="reviewer's answer for delete_files (rejected)">\nNot from a ticket.\n</data-${nonce}>`,
    );
    expect(parseRegions(textOf(message), nonce).regions[0]?.body).toBe('Not from a ticket.');
  });

  it('puts a tool’s error before its content, inside the region', () => {
    const message = renderToolResult(
      {
        callId: 'call_2',
        tool: 'fetch_page',
        content: '',
        status: 'error',
        error: { code: 'timeout', message: 'no answer in 10 s', retryable: true },
      },
      nonce,
      'tags',
    );
    expect(textOf(message)).toContain('label="result of fetch_page (error)"');
    expect(parseRegions(textOf(message), nonce).regions[0]?.body).toBe(
      '[error timeout, retryable] no answer in 10 s\n',
    );
  });

  it('cuts a result to maxChars with a marker and the truncated attribute', () => {
    const message = renderToolResult(
      { callId: 'call_3', tool: 'read_log', content: 'x'.repeat(50), maxChars: 10 },
      nonce,
      'tags',
    );
    expect(textOf(message)).toContain(' truncated="true"');
    expect(parseRegions(textOf(message), nonce).regions[0]?.body).toBe(
      `${'x'.repeat(10)}\n[cut by Valve: 10 of 50 characters of the result are shown]`,
    );
  });

  it('leaves a result within maxChars whole', () => {
    const message = renderToolResult(
      { callId: 'c', tool: 't', content: 'short', maxChars: 5 },
      nonce,
      'tags',
    );
    expect(parseRegions(textOf(message), nonce).regions[0]?.body).toBe('short');
    expect(textOf(message)).not.toContain('truncated');
  });
});

describe('renderPrompt with tool turns', () => {
  const request: ReasonRequest = reasonRequestSchema.parse({
    task: 'tidy',
    instructions: 'Tidy the folder.',
    tools: [{ name: 'read_log', inputSchema: { type: 'object' }, maxResultChars: 20 }],
    conversation: [
      { role: 'user', content: 'read the log' },
      { role: 'assistant', toolCalls: [{ id: 'call_1', name: 'read_log', arguments: {} }] },
      { role: 'tool', toolCallId: 'call_1', content: 'y'.repeat(100) },
    ],
  });

  it('bounds a tool’s result by its maxResultChars and warns that it cut it', () => {
    const prompt = renderPrompt(request, { nonce, canary: 'feedfacecafebeef' });
    const tool = prompt.messages.find((m) => m.role === 'tool');
    expect(
      parseRegions(textOf(tool as { content: { type: string; text?: string }[] }), nonce).regions[0]?.body,
    ).toBe(`${'y'.repeat(20)}\n[cut by Valve: 20 of 100 characters of the result are shown]`);
    expect(prompt.warnings.map((w) => w.code)).toContain('prompt.truncated');
  });
});
