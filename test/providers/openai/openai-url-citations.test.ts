import { describe, expect, it } from 'vitest';
import { openaiAdapter } from '../../../src/providers/openai/openai-adapter';
import urlCitation from '../../fixtures/providers/openai/url-citation.json';
import urlCitationSse from '../../fixtures/providers/openai/url-citation.sse.json';
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

// Chat Completions `message.annotations` of type `url_citation`
// (https://platform.openai.com/docs/api-reference/chat/object): indices in characters (code points);
// the fixture's text holds an emoji (2 code units) before the cited span.

const cited = 'a new study finds that city parks lower stress';
const citation = {
  kind: 'url',
  ref: 'https://example.com/parks-study?utm_source=openai',
  title: 'City parks and stress',
};

describe('openai adapter: url citations', () => {
  it('reads url_citation annotations, character offsets turned into code units', async () => {
    const { fetch } = fakeFetch(() => jsonResponse(urlCitation));
    const response = await openaiAdapter.generate(trustRequest, callOptions(fetch));
    const block = response.message.content[0];
    if (block?.type !== 'text') throw new Error('expected a text block');
    const start = block.text.indexOf(cited);
    expect(block.annotations).toEqual([{ ...citation, start, end: start + cited.length }]);
    // The provider counted one character fewer before the span than JavaScript counts code units.
    expect(urlCitation.choices[0]?.message.annotations[0]?.url_citation.start_index).toBe(start - 1);
  });

  it('sends the annotations of the last chunk once, before the finish', async () => {
    const { fetch } = fakeFetch(() => sseResponse(sseFrames(urlCitationSse)));
    const { parts, error } = await drain(openaiAdapter.stream(trustRequest, callOptions(fetch)));
    expect(error).toBeUndefined();
    const text = streamedText(parts);
    const annotations = parts.flatMap((part) =>
      part.type === 'delta' && part.delta.delta.type === 'annotations' ? part.delta.delta.annotations : [],
    );
    expect(annotations.map((a) => [text.slice(a.start, a.end), a.ref])).toEqual([[cited, citation.ref]]);
    expect(
      parts.map((part) => (part.type === 'delta' ? part.delta.delta.type : part.type)).slice(-2),
    ).toEqual(['annotations', 'finish']);
  });
});
