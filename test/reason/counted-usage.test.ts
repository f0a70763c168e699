import { describe, expect, it } from 'vitest';
import { countedUsage } from '../../src/reason/counted-usage';

const read = { inputTokens: 120, outputTokens: 300, maxTokens: 200 };

describe('countedUsage', () => {
  it('is the usage the provider reported, when it reported it', () => {
    const reported = { input_tokens: 90, output_tokens: 150, cache_read_tokens: 10 };
    expect(countedUsage(reported, read)).toEqual(reported);
  });

  it('fills what the provider left at 0 with Valve’s estimate, output up to max_tokens', () => {
    expect(countedUsage({ input_tokens: 0, output_tokens: 0 }, read)).toEqual({
      input_tokens: 120,
      output_tokens: 200,
    });
    expect(countedUsage({ input_tokens: 0, output_tokens: 0 }, { ...read, outputTokens: 40 })).toEqual({
      input_tokens: 120,
      output_tokens: 40,
    });
    expect(countedUsage({ input_tokens: 95, output_tokens: 0 }, read).input_tokens).toBe(95);
  });

  it('counts a cut stream at the worst case, or at everything read when that is more', () => {
    expect(countedUsage(undefined, { ...read, outputTokens: 150 })).toEqual({
      input_tokens: 120,
      output_tokens: 200,
    });
    expect(countedUsage(undefined, read)).toEqual({ input_tokens: 120, output_tokens: 300 });
  });
});
