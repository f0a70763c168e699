import { describe, expect, it } from 'vitest';
import type { ModelAdapter } from '../../src/model/model-adapter';
import { anthropicAdapter } from '../../src/providers/anthropic/anthropic-adapter';
import { mapAnthropicStopReason } from '../../src/providers/anthropic/map-finish-reason';
import { geminiAdapter } from '../../src/providers/gemini/gemini-adapter';
import { mapGeminiFinishReason } from '../../src/providers/gemini/map-finish-reason';
import { mapOpenAIFinishReason } from '../../src/providers/openai/map-finish-reason';
import { openaiAdapter } from '../../src/providers/openai/openai-adapter';
import anthropicText from '../fixtures/providers/anthropic/text.json';
import anthropicSse from '../fixtures/providers/anthropic/text.sse.json';
import geminiText from '../fixtures/providers/gemini/text.json';
import geminiSse from '../fixtures/providers/gemini/text.sse.json';
import openaiText from '../fixtures/providers/openai/text.json';
import openaiSse from '../fixtures/providers/openai/text.sse.json';
import {
  callOptions,
  drain,
  fakeFetch,
  jsonResponse,
  type SseFixture,
  sseFrames,
  sseResponse,
  trustRequest,
} from './fake-fetch';

// An answer cut by the token cap must say so: mapped to `length` (never `stop`, which would pass a
// truncated answer off as complete), with the provider's own reason kept beside it.

/** A recorded fixture with its finish reason swapped for the provider's "hit the token cap" one. */
function cutByTheCap<T>(fixture: T, from: string, to: string): T {
  const text = JSON.stringify(fixture);
  expect(text).toContain(from);
  return JSON.parse(text.split(from).join(to)) as T;
}

const providers: ReadonlyArray<{
  name: string;
  adapter: ModelAdapter;
  json: unknown;
  sse: SseFixture;
  from: string;
  to: string;
  raw: string;
}> = [
  {
    name: 'openai',
    adapter: openaiAdapter,
    json: openaiText,
    sse: openaiSse as SseFixture,
    from: '"finish_reason":"stop"',
    to: '"finish_reason":"length"',
    raw: 'length',
  },
  {
    name: 'anthropic',
    adapter: anthropicAdapter,
    json: anthropicText,
    sse: anthropicSse as SseFixture,
    from: '"stop_reason":"end_turn"',
    to: '"stop_reason":"max_tokens"',
    raw: 'max_tokens',
  },
  {
    name: 'gemini',
    adapter: geminiAdapter,
    json: geminiText,
    sse: geminiSse as SseFixture,
    from: '"finishReason":"STOP"',
    to: '"finishReason":"MAX_TOKENS"',
    raw: 'MAX_TOKENS',
  },
];

describe('the token-cap finish reason', () => {
  it('maps to length in every provider’s table, and the natural end to stop', () => {
    expect(mapOpenAIFinishReason('length')).toBe('length');
    expect(mapOpenAIFinishReason('stop')).toBe('stop');
    expect(mapAnthropicStopReason('max_tokens')).toBe('length');
    expect(mapAnthropicStopReason('end_turn')).toBe('stop');
    expect(mapGeminiFinishReason('MAX_TOKENS', false)).toBe('length');
    expect(mapGeminiFinishReason('STOP', false)).toBe('stop');
  });

  for (const p of providers) {
    it(`${p.name}: a JSON answer cut by the cap finishes with length, raw ${p.raw}`, async () => {
      const { fetch } = fakeFetch(() => jsonResponse(cutByTheCap(p.json, p.from, p.to)));
      const response = await p.adapter.generate(trustRequest, callOptions(fetch));
      expect(response.finish_reason).toBe('length');
      expect(response.raw_finish_reason).toBe(p.raw);
    });

    it(`${p.name}: a stream cut by the cap finishes with length, raw ${p.raw}`, async () => {
      const frames = sseFrames(cutByTheCap(p.sse, p.from, p.to));
      const { fetch } = fakeFetch(() => sseResponse(frames));
      const { parts, error } = await drain(p.adapter.stream(trustRequest, callOptions(fetch)));
      expect(error).toBeUndefined();
      const finish = parts.find((part) => part.type === 'finish');
      expect(finish).toMatchObject({ finish_reason: 'length', raw_finish_reason: p.raw });
    });
  }
});
