import { describe, expect, it } from 'vitest';
import { geminiAdapter } from '../../../src/providers/gemini/gemini-adapter';
import grounding from '../../fixtures/providers/gemini/grounding.json';
import groundingSse from '../../fixtures/providers/gemini/grounding.sse.json';
import {
  callOptions,
  drain,
  fakeFetch,
  jsonResponse,
  sseFrames,
  sseResponse,
  streamedText,
  trustRequest,
} from '../fake-fetch';

// Gemini grounding metadata (https://ai.google.dev/gemini-api/docs/google-search,
// https://ai.google.dev/api/generate-content#GroundingMetadata): segments in UTF-8 bytes of their part,
// tied to web chunks. The fixture's second sentence holds an em dash (3 bytes, 1 code unit).

const first = 'Spain won Euro 2024, defeating England 2-1 in the final.';
const second =
  "This victory marks Spain's record fourth European Championship title — after 1964, 2008 and 2012.";
const aljazeera = {
  kind: 'web_search_citation',
  ref: 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/1234567890abcdef',
  title: 'aljazeera.com',
};
const uefa = {
  kind: 'web_search_citation',
  ref: 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/abcdef1234567890',
  title: 'uefa.com',
};

describe('gemini adapter: grounding', () => {
  it('reads grounding supports as annotations, byte offsets turned into code units', async () => {
    const { fetch } = fakeFetch(() => jsonResponse(grounding));
    const response = await geminiAdapter.generate(trustRequest, callOptions(fetch, { model: 'm' }));
    const block = response.message.content[0];
    if (block?.type !== 'text') throw new Error('expected a text block');
    expect(block.annotations).toEqual([
      { ...aljazeera, start: 0, end: first.length },
      { ...aljazeera, start: first.length + 1, end: block.text.length },
      { ...uefa, start: first.length + 1, end: block.text.length },
    ]);
    const spans = (block.annotations ?? []).map((a) => block.text.slice(a.start, a.end));
    expect(spans).toEqual([first, second, second]);
  });

  it('sends the grounding of a stream once, before the finish, against all the streamed text', async () => {
    const { fetch } = fakeFetch(() => sseResponse(sseFrames(groundingSse)));
    const { parts, error } = await drain(
      geminiAdapter.stream(trustRequest, callOptions(fetch, { model: 'm' })),
    );
    expect(error).toBeUndefined();
    const text = streamedText(parts);
    const annotations = parts.flatMap((part) =>
      part.type === 'delta' && part.delta.delta.type === 'annotations' ? part.delta.delta.annotations : [],
    );
    expect(annotations.map((a) => [text.slice(a.start, a.end), a.title])).toEqual([
      [first, 'aljazeera.com'],
      [second, 'aljazeera.com'],
      [second, 'uefa.com'],
    ]);
    const kinds = parts.map((part) => (part.type === 'delta' ? part.delta.delta.type : part.type));
    expect(kinds).toEqual(['text', 'text', 'annotations', 'finish']);
  });
});
