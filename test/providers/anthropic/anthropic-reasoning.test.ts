import { describe, expect, it } from 'vitest';
import type { ModelRequest, ReasoningSetting } from '../../../src/model/model-request';
import { anthropicAdapter } from '../../../src/providers/anthropic/anthropic-adapter';
import { mapAnthropicUsage } from '../../../src/providers/anthropic/parse-response';
import text from '../../fixtures/providers/anthropic/text.json';
import { callOptions, fakeFetch, jsonResponse, trustRequest } from '../fake-fetch';

// Anthropic's extended thinking, `thinking: { type: "enabled", budget_tokens }`, at least 1,024 and under
// max_tokens, with neither temperature nor top_p nor a forced tool choice beside it
// (https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking); the newer models' effort
// control, `output_config.effort` (https://platform.claude.com/docs/en/build-with-claude/effort).

const asked = (reasoning: ReasoningSetting, extra: Partial<ModelRequest> = {}): ModelRequest => ({
  ...trustRequest,
  ...extra,
  settings: { max_tokens: 4000, temperature: 0.2, reasoning },
});

describe('anthropic adapter: reasoning', () => {
  it.each([1024, 2999])('sends a budget of %i as extended thinking and drops temperature', async (budget) => {
    const { fetch, calls } = fakeFetch(() => jsonResponse(text));
    const response = await anthropicAdapter.generate(asked({ budget_tokens: budget }), callOptions(fetch));
    expect(calls[0]?.body).toMatchObject({
      max_tokens: 4000,
      thinking: { type: 'enabled', budget_tokens: budget },
    });
    expect(calls[0]?.body).not.toHaveProperty('temperature');
    expect(response.warnings?.map((w) => w.message)).toEqual([
      'anthropic does not take sampling.temperature with this value or request; it was not sent.',
    ]);
  });

  it.each(['low', 'medium', 'high'] as const)('sends effort %s as output_config.effort', (effort) => {
    const body = anthropicAdapter.toWireBody?.(asked({ effort }), callOptions(fetch));
    expect(body).toMatchObject({ output_config: { effort }, temperature: 0.2 });
    expect(body).not.toHaveProperty('thinking');
  });

  it('turns thinking off with type disabled', () => {
    expect(anthropicAdapter.toWireBody?.(asked({ enabled: false }), callOptions(fetch))).toMatchObject({
      thinking: { type: 'disabled' },
    });
  });

  it('drops thinking beside a forced tool call, saying so, and keeps the temperature', async () => {
    const { fetch, calls } = fakeFetch(() => jsonResponse(text));
    const response = await anthropicAdapter.generate(
      asked({ budget_tokens: 2048 }, { output: { schema: { type: 'object' }, strategy: 'tool' } }),
      callOptions(fetch),
    );
    expect(calls[0]?.body).not.toHaveProperty('thinking');
    expect(calls[0]?.body).toMatchObject({ temperature: 0.2, tool_choice: { type: 'tool' } });
    expect(response.warnings?.map((w) => w.message)).toEqual([
      'anthropic does not take reasoning with this value or request; it was not sent.',
    ]);
  });
});

describe('anthropic usage: thinking tokens', () => {
  it('reports the thinking inside output_tokens as reasoning tokens, and 0 when the answer gives no count', () => {
    const usage = { input_tokens: 10, output_tokens: 41, output_tokens_details: { thinking_tokens: 34 } };
    expect(mapAnthropicUsage(usage)).toMatchObject({ output_tokens: 41, reasoning_tokens: 34 });
    expect(mapAnthropicUsage({ input_tokens: 10, output_tokens: 41 })).toMatchObject({ reasoning_tokens: 0 });
  });
});
