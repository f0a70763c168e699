import { describe, expect, it } from 'vitest';
import type { ReasoningSetting } from '../../../src/model/model-request';
import { openaiAdapter } from '../../../src/providers/openai/openai-adapter';
import toolCall from '../../fixtures/providers/openai/tool-call.json';
import { callOptions, fakeFetch, jsonResponse, trustRequest } from '../fake-fetch';

// Chat Completions takes `reasoning_effort` (https://platform.openai.com/docs/api-reference/chat/create);
// a reasoning model counts its thinking in completion_tokens and reports it in
// completion_tokens_details.reasoning_tokens.

const asked = (reasoning: ReasoningSetting) => ({
  ...trustRequest,
  settings: { max_tokens: 4000, reasoning },
});

describe('openai adapter: reasoning', () => {
  it.each(['minimal', 'low', 'medium', 'high'] as const)(
    'sends effort %s as reasoning_effort',
    async (effort) => {
      const { fetch, calls } = fakeFetch(() => jsonResponse(toolCall));
      await openaiAdapter.generate(asked({ effort }), callOptions(fetch, { model: 'o3' }));
      expect(calls[0]?.body).toMatchObject({
        model: 'o3',
        max_completion_tokens: 4000,
        reasoning_effort: effort,
      });
    },
  );

  it('turns thinking off with reasoning_effort none, and sends no field when told nothing', () => {
    const off = openaiAdapter.toWireBody?.(asked({ enabled: false }), callOptions(fetch, { model: 'o3' }));
    expect(off).toMatchObject({ reasoning_effort: 'none' });
    const silent = openaiAdapter.toWireBody?.(trustRequest, callOptions(fetch, { model: 'o3' }));
    expect(silent).not.toHaveProperty('reasoning_effort');
  });

  it('reports reasoning_tokens as reasoning inside the output tokens', async () => {
    const { fetch } = fakeFetch(() => jsonResponse(toolCall));
    const response = await openaiAdapter.generate(
      asked({ effort: 'low' }),
      callOptions(fetch, { model: 'o3' }),
    );
    const details = toolCall.usage.completion_tokens_details;
    expect(response.usage.reasoning_tokens).toBe(details.reasoning_tokens);
    expect(response.usage.reasoning_tokens).toBeGreaterThan(0);
    expect(response.usage.output_tokens).toBe(toolCall.usage.completion_tokens);
  });
});
