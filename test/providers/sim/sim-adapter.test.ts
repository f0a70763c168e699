import { describe, expect, it } from 'vitest';
import { estimateTokens } from '../../../src/model/estimate-tokens';
import type { ModelRequest } from '../../../src/model/model-request';
import { simAdapter } from '../../../src/providers/sim/sim-adapter';
import { callOptions, drain, streamedText, trustRequest } from '../fake-fetch';

const noFetch = () => Promise.reject(new Error('the simulator makes no calls'));
const options = callOptions(noFetch, { model: 'fast' });
const capped = (max_tokens: number): ModelRequest => ({ ...trustRequest, settings: { max_tokens } });

function textOf(response: Awaited<ReturnType<typeof simAdapter.generate>>): string {
  return response.message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

describe('the simulator under max_tokens', () => {
  it('answers in full with "stop" when the answer fits', async () => {
    const response = await simAdapter.generate(capped(1000), options);
    expect(response.finish_reason).toBe('stop');
    expect(textOf(response)).toMatch(/No model was called\.$/);
  });

  it('cuts the answer to max_tokens and says "length", as a model does', async () => {
    const full = textOf(await simAdapter.generate(capped(1000), options));
    const response = await simAdapter.generate(capped(3), options);
    const text = textOf(response);
    expect(response.finish_reason).toBe('length');
    expect(response.raw_finish_reason).toBe('length');
    expect(text.length).toBeGreaterThan(0);
    expect(full.startsWith(text)).toBe(true);
    expect(text.length).toBeLessThan(full.length);
    expect(estimateTokens(text)).toBeLessThanOrEqual(3);
    expect(response.usage.output_tokens).toBeLessThanOrEqual(3);
  });

  it('streams the same cut answer and ends it with "length"', async () => {
    const cut = textOf(await simAdapter.generate(capped(12), options));
    const { parts, error } = await drain(simAdapter.stream(capped(12), options));
    expect(error).toBeUndefined();
    expect(streamedText(parts)).toBe(cut);
    const finish = parts.find((part) => part.type === 'finish');
    expect(finish).toMatchObject({ finish_reason: 'length' });
  });
});
