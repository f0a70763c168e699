import { describe, expect, it } from 'vitest';
import { maxJsonDepth } from '../../../src/encoding/json-depth';
import { createKey, postJson } from '../../helpers/api';

// A tool call's `arguments` is JSON inside a JSON string: the body's depth rule cannot see into it, so
// the door parses it under the same rule and answers a 400 naming the parameter, never a 500.

const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
const deepArguments = `{"a":${deep(10_000)}}`;

interface OpenAiErrorJson {
  error: { message: string; type: string; param: string | null; code: string };
}

const tool = { type: 'function', function: { name: 'w', parameters: { type: 'object' } } };

describe('a tool call’s arguments nested 10,000 deep at the OpenAI door', () => {
  it('is a 400 naming messages[1].tool_calls[0].function.arguments on Chat Completions', async () => {
    const { key } = await createKey();
    const res = await postJson(
      '/openai/v1/chat/completions',
      {
        model: 'auto',
        tools: [tool],
        messages: [
          { role: 'user', content: 'Weather?' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'c1', type: 'function', function: { name: 'w', arguments: deepArguments } }],
          },
          { role: 'tool', tool_call_id: 'c1', content: 'sunny' },
        ],
      },
      { Authorization: `Bearer ${key}` },
    );
    expect(res.status).toBe(400);
    const json = (await res.json()) as OpenAiErrorJson;
    expect(json.error.type).toBe('invalid_request_error');
    expect(json.error.param).toBe('messages[1].tool_calls[0].function.arguments');
    expect(json.error.message).toContain(`deeper than ${maxJsonDepth} levels`);
  });

  it('is a 400 naming input[1].arguments on the Responses API', async () => {
    const { key } = await createKey();
    const res = await postJson(
      '/openai/v1/responses',
      {
        model: 'auto',
        tools: [{ type: 'function', name: 'w', parameters: { type: 'object' } }],
        input: [
          { role: 'user', content: 'Weather?' },
          { type: 'function_call', call_id: 'c1', name: 'w', arguments: deepArguments },
          { type: 'function_call_output', call_id: 'c1', output: 'sunny' },
        ],
      },
      { Authorization: `Bearer ${key}` },
    );
    expect(res.status).toBe(400);
    const json = (await res.json()) as OpenAiErrorJson;
    expect(json.error.type).toBe('invalid_request_error');
    expect(json.error.param).toBe('input[1].arguments');
    expect(json.error.message).toContain(`deeper than ${maxJsonDepth} levels`);
  });

  it('still takes arguments nested exactly at the limit', async () => {
    const { key } = await createKey();
    const res = await postJson(
      '/openai/v1/chat/completions',
      {
        model: 'auto',
        tools: [tool],
        messages: [
          { role: 'user', content: 'Weather?' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'c1',
                type: 'function',
                function: { name: 'w', arguments: `{"a":${deep(maxJsonDepth - 1)}}` },
              },
            ],
          },
          { role: 'tool', tool_call_id: 'c1', content: 'sunny' },
        ],
      },
      { Authorization: `Bearer ${key}` },
    );
    expect(res.status).toBe(200);
  });
});
