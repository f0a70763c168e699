import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../../../src/model/model-request';
import type { StreamPart } from '../../../src/model/model-response';
import { anthropicAdapter } from '../../../src/providers/anthropic/anthropic-adapter';
import citations from '../../fixtures/providers/anthropic/citations.json';
import citationsSse from '../../fixtures/providers/anthropic/citations.sse.json';
import {
  callOptions,
  drain,
  fakeFetch,
  jsonResponse,
  sseFrames,
  sseResponse,
  streamedText,
} from '../fake-fetch';

// Anthropic citations (https://platform.claude.com/docs/en/build-with-claude/citations): a document
// block asks for them with `citations: { enabled: true }`; the answer's text blocks carry `citations`,
// streamed as `citations_delta`s.

const pdf = {
  type: 'file' as const,
  source: { kind: 'base64' as const, data: 'JVBERi0xLjQK' },
  mime_type: 'application/pdf',
};
const withPdfs = (citationsOn: boolean): ModelRequest => ({
  messages: [
    { role: 'system', content: [{ type: 'text', text: 'Answer from the documents.' }] },
    { role: 'user', content: [{ type: 'text', text: 'Read:' }, pdf, { type: 'text', text: 'and' }, pdf] },
  ],
  ...(citationsOn && { citations: true }),
});

describe('anthropic adapter: citations', () => {
  it('asks for citations on every document block when the request wants them, and only then', () => {
    const on = anthropicAdapter.toWireBody?.(withPdfs(true), callOptions(fetch)) as {
      messages: { content: Record<string, unknown>[] }[];
    };
    const documents = on.messages[0]?.content.filter((block) => block.type === 'document');
    expect(documents).toHaveLength(2);
    for (const document of documents ?? []) expect(document.citations).toEqual({ enabled: true });
    expect(on.messages[0]?.content.filter((block) => 'citations' in block)).toHaveLength(2);
    const off = anthropicAdapter.toWireBody?.(withPdfs(false), callOptions(fetch));
    expect(JSON.stringify(off)).not.toContain('citations');
  });

  it('reads every location type as annotations over its text block', async () => {
    const { fetch, calls } = fakeFetch(() => jsonResponse(citations));
    const response = await anthropicAdapter.generate(withPdfs(true), callOptions(fetch));
    expect(JSON.stringify(calls[0]?.body)).toContain('"citations":{"enabled":true}');
    const cited = response.message.content.flatMap((block) =>
      block.type === 'text' && block.annotations
        ? [{ text: block.text, annotations: block.annotations }]
        : [],
    );
    expect(cited).toEqual([
      {
        text: 'the grass is green',
        annotations: [
          {
            kind: 'file_citation',
            start: 0,
            end: 18,
            text: 'The grass is green.',
            title: 'My Document',
            document_index: 0,
          },
        ],
      },
      {
        text: 'the sky is blue',
        annotations: [
          {
            kind: 'file_citation',
            start: 0,
            end: 15,
            text: 'The sky is blue.',
            title: 'My Document',
            document_index: 0,
          },
        ],
      },
      {
        text: 'water is essential',
        annotations: [
          {
            kind: 'file_citation',
            start: 0,
            end: 18,
            text: 'Water is essential for life.',
            title: 'PDF Document',
            document_index: 1,
          },
        ],
      },
      {
        text: 'important findings',
        annotations: [
          {
            kind: 'file_citation',
            start: 0,
            end: 18,
            text: 'These are important findings.',
            title: 'Custom Content Document',
            document_index: 2,
          },
        ],
      },
      {
        text: 'Claude Shannon was born on April 30, 1916, in Petoskey, Michigan',
        annotations: [
          {
            kind: 'web_search_citation',
            start: 0,
            end: 64,
            text: expect.stringMatching(/^Claude Elwood Shannon/),
            ref: 'https://en.wikipedia.org/wiki/Claude_Shannon',
            title: 'Claude Shannon - Wikipedia',
          },
        ],
      },
    ]);
    // Uncited blocks stay as they were.
    expect(response.message.content[0]).toEqual({ type: 'text', text: 'According to the document, ' });
  });

  it('streams each block’s citations when the block stops, as offsets into all the text so far', async () => {
    const { fetch } = fakeFetch(() => sseResponse(sseFrames(citationsSse)));
    const { parts, error } = await drain(anthropicAdapter.stream(withPdfs(true), callOptions(fetch)));
    expect(error).toBeUndefined();
    const text = streamedText(parts);
    expect(text).toBe('According to the document, the grass is green and the sky is blue.');
    const annotated = parts.flatMap((part: StreamPart) =>
      part.type === 'delta' && part.delta.delta.type === 'annotations' ? part.delta.delta.annotations : [],
    );
    expect(annotated.map((a) => [text.slice(a.start, a.end), a.text, a.document_index])).toEqual([
      ['the grass is green', 'The grass is green.', 0],
      ['the sky is blue', 'The sky is blue.', 0],
    ]);
    // Each arrives after its block's text and before the next block's.
    const kinds = parts.map((part) => (part.type === 'delta' ? part.delta.delta.type : part.type));
    expect(kinds).toEqual(['text', 'text', 'annotations', 'text', 'text', 'annotations', 'text', 'finish']);
  });
});
