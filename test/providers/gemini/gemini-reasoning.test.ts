import { describe, expect, it } from 'vitest';
import type { ReasoningSetting } from '../../../src/model/model-request';
import { geminiAdapter } from '../../../src/providers/gemini/gemini-adapter';
import textJson from '../../fixtures/providers/gemini/text.json';
import { callOptions, fakeFetch, jsonResponse, trustRequest } from '../fake-fetch';

// Gemini's generationConfig.thinkingConfig (https://ai.google.dev/gemini-api/docs/thinking):
// thinkingBudget for 2.5 (0 turns thinking off on Flash), thinkingLevel for Gemini 3, includeThoughts
// for thought summaries. Thoughts are billed as output but not counted in candidatesTokenCount.

const asked = (reasoning: ReasoningSetting) => ({
  ...trustRequest,
  settings: { max_tokens: 4000, reasoning },
});

function configOf(reasoning: ReasoningSetting): Record<string, unknown> {
  const body = geminiAdapter.toWireBody?.(asked(reasoning), callOptions(fetch)) as {
    generationConfig: Record<string, unknown>;
  };
  return body.generationConfig;
}

describe('gemini adapter: reasoning', () => {
  it.each([1024, 2800, 0])(
    'sends a budget of %i as thinkingBudget inside maxOutputTokens',
    async (budget) => {
      const { fetch, calls } = fakeFetch(() => jsonResponse(textJson));
      await geminiAdapter.generate(
        asked({ budget_tokens: budget }),
        callOptions(fetch, { model: 'gemini-2.5-flash' }),
      );
      expect(calls[0]?.body).toMatchObject({
        generationConfig: { maxOutputTokens: 4000, thinkingConfig: { thinkingBudget: budget } },
      });
    },
  );

  it.each(['minimal', 'low', 'medium', 'high'] as const)('sends effort %s as thinkingLevel', (effort) => {
    expect(configOf({ effort })).toMatchObject({ thinkingConfig: { thinkingLevel: effort } });
    expect(configOf({ effort }).thinkingConfig).not.toHaveProperty('thinkingBudget');
  });

  it('turns thinking off with thinkingBudget 0 and asks for thought summaries with includeThoughts', () => {
    expect(configOf({ enabled: false })).toMatchObject({ thinkingConfig: { thinkingBudget: 0 } });
    expect(configOf({ budget_tokens: 512, summary: 'auto' })).toMatchObject({
      thinkingConfig: { thinkingBudget: 512, includeThoughts: true },
    });
  });

  it('reports thoughtsTokenCount as reasoning, inside the output tokens', async () => {
    const { fetch } = fakeFetch(() => jsonResponse(textJson));
    const response = await geminiAdapter.generate(asked({ effort: 'high' }), callOptions(fetch));
    const usage = textJson.usageMetadata;
    expect(response.usage.reasoning_tokens).toBe(usage.thoughtsTokenCount);
    expect(response.usage.output_tokens).toBe(usage.candidatesTokenCount + usage.thoughtsTokenCount);
  });
});
