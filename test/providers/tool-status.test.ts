import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/model/message';
import type { ModelRequest } from '../../src/model/model-request';
import { anthropicAdapter } from '../../src/providers/anthropic/anthropic-adapter';
import { geminiAdapter } from '../../src/providers/gemini/gemini-adapter';
import { callOptions, fakeFetch, jsonResponse } from './fake-fetch';

// A tool turn that did not succeed (seed ToolStatus error, rejected, cancelled) reaches each provider in
// its own field: Anthropic's `is_error`, Gemini's `error` response; a success or a skipped call does not.

function requestWith(status?: Message['status']): ModelRequest {
  return {
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'clean up' }] },
      {
        role: 'assistant',
        content: [{ type: 'tool_call', id: 'toolu_1', name: 'delete_files', args: { path: '/a' } }],
      },
      {
        role: 'tool',
        call_id: 'toolu_1',
        tool: 'delete_files',
        content: [{ type: 'text', text: 'not run' }],
        ...(status === undefined ? {} : { status }),
      },
    ],
    tools: [{ name: 'delete_files', input_schema: { type: 'object' } }],
  };
}

const { fetch } = fakeFetch(() => jsonResponse({}));

function anthropicResult(status?: Message['status']): unknown {
  const body = anthropicAdapter.toWireBody?.(requestWith(status), callOptions(fetch)) as {
    messages: { content: unknown[] }[];
  };
  return body.messages.at(-1)?.content[0];
}

function geminiResult(status?: Message['status']): unknown {
  const body = geminiAdapter.toWireBody?.(
    requestWith(status),
    callOptions(fetch, { model: 'gemini-2.5-flash' }),
  ) as {
    contents: { parts: unknown[] }[];
  };
  return body.contents.at(-1)?.parts[0];
}

describe('a tool turn’s status on the wire', () => {
  it.each(['error', 'rejected', 'cancelled'] as const)(
    'marks a %s call as an error for Anthropic and Gemini',
    (status) => {
      expect(anthropicResult(status)).toEqual({
        type: 'tool_result',
        tool_use_id: 'toolu_1',
        content: 'not run',
        is_error: true,
      });
      expect(geminiResult(status)).toEqual({
        functionResponse: { name: 'delete_files', response: { error: 'not run' } },
      });
    },
  );

  it.each([undefined, 'success', 'skipped'] as const)('sends a %s result as a plain result', (status) => {
    expect(anthropicResult(status)).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_1',
      content: 'not run',
    });
    expect(geminiResult(status)).toEqual({
      functionResponse: { name: 'delete_files', response: { content: 'not run' } },
    });
  });
});
