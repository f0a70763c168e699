import { afterEach, describe, expect, it, vi } from 'vitest';
import { reasonResponseSchema } from '../../src/contracts/reason-response';
import type { Catalog } from '../../src/policy/catalog';
import anthropicCitations from '../fixtures/providers/anthropic/citations.json';
import anthropicCitationsSse from '../fixtures/providers/anthropic/citations.sse.json';
import anthropicText from '../fixtures/providers/anthropic/text.json';
import geminiGrounding from '../fixtures/providers/gemini/grounding.json';
import openaiUrlCitation from '../fixtures/providers/openai/url-citation.json';
import openaiUrlCitationSse from '../fixtures/providers/openai/url-citation.sse.json';
import { createKey } from '../helpers/api';
import { simModel } from '../helpers/catalog-fixtures';
import { checkStreamOrder, parseSse } from '../helpers/check-stream-order';
import { responseValidator, validates } from '../helpers/json-schemas';
import { base64Of, pdfOf } from '../helpers/media-samples';
import { callWithCatalog, reasonWithCatalog } from '../helpers/with-catalog';
import { sseFrames, sseResponse } from '../providers/fake-fetch';

// Citations end to end: recorded provider answers replayed by fake upstreams, through /v1/reason (JSON
// and stream) and the OpenAI door. A citation of the n-th document Valve sent names the context item
// that carried it.

afterEach(() => vi.restoreAllMocks());

const pdfModel = {
  simulate: undefined,
  inputModalities: ['text', 'image', 'pdf'] as ('text' | 'image' | 'pdf')[],
};
const catalog: Catalog = {
  providers: [
    {
      id: 'anthropic',
      kind: 'anthropic',
      apiKeyEnv: 'ANTHROPIC_API_KEY',
      baseUrl: 'https://anthropic.test/v1',
    },
    { id: 'openai', kind: 'openai', apiKeyEnv: 'OPENAI_API_KEY', baseUrl: 'https://openai.test/v1' },
    { id: 'gemini', kind: 'gemini', apiKeyEnv: 'GEMINI_API_KEY', baseUrl: 'https://gemini.test/v1beta' },
  ],
  models: [
    simModel('claude-cites', { ...pdfModel, provider: 'anthropic' }),
    simModel('gpt-4o-search-preview', { ...pdfModel, provider: 'openai' }),
    simModel('gemini-grounded', { ...pdfModel, provider: 'gemini' }),
  ],
};
const keys = { ANTHROPIC_API_KEY: 'sk-ant-test', OPENAI_API_KEY: 'sk-test', GEMINI_API_KEY: 'g-test' };

/** Fake upstreams answering `json` or, to a streamed call, `sse`; every body sent is kept. */
function upstream(json: unknown, sse?: { events: { event?: string; data: unknown }[] }) {
  const bodies: Record<string, unknown>[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (_input, init) => {
    const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
    bodies.push(body);
    if (body.stream === true && sse) return sseResponse(sseFrames(sse));
    return Response.json(json);
  });
  return bodies;
}

const pdf = {
  type: 'file',
  mimeType: 'application/pdf',
  source: { kind: 'base64', data: base64Of(pdfOf(1)) },
};
// Documents sent in order: item 1's PDF (document 0), then item 2's two (documents 1 and 2).
const citedRequest = {
  task: 'answer',
  instructions: 'Answer from the documents, citing them.',
  context: [
    { label: 'notes', trust: 'untrusted', privacy: 'internal', content: 'No PDF here.' },
    { label: 'handbook', trust: 'untrusted', privacy: 'internal', content: 'The handbook.', media: [pdf] },
    { trust: 'untrusted', privacy: 'internal', content: 'Two appendices.', media: [pdf, pdf] },
  ],
  output: { format: 'text', citations: true },
  modelPolicy: { pinned: { provider: 'anthropic', model: 'claude-cites' }, allowFallback: false },
};

const answerText =
  'According to the document, the grass is green and the sky is blue. Page 5 says water is essential, ' +
  'the notes list important findings, and Claude Shannon was born on April 30, 1916, in Petoskey, Michigan';

interface Cited {
  kind: string;
  start: number;
  end: number;
  text?: string;
  ref?: string;
  title?: string;
  contextItem?: number;
}

const span = (part: string) => ({
  start: answerText.indexOf(part),
  end: answerText.indexOf(part) + part.length,
});

describe('citations through /v1/reason', () => {
  it('asks Anthropic to cite the PDFs and answers the citations on the text, naming the context items', async () => {
    const bodies = upstream(anthropicCitations);
    const { key } = await createKey('citations-json');
    const call = await reasonWithCatalog(catalog, key, citedRequest, keys);
    const answer = (await call.res.json()) as { output: { text: string; annotations: Cited[] } };
    await call.settled();
    expect(call.res.status, JSON.stringify(answer)).toBe(200);
    const wire = JSON.stringify(bodies[0]);
    expect(wire.match(/"type":"document"/g)).toHaveLength(3);
    expect(wire.match(/"citations":\{"enabled":true\}/g)).toHaveLength(3);
    expect(answer.output.text).toBe(answerText);
    // Both contract twins take the answer with its annotations.
    expect(reasonResponseSchema.safeParse(answer).success).toBe(true);
    expect(validates(responseValidator, answer)).toBe(true);
    expect(answer.output.annotations).toEqual([
      {
        kind: 'file_citation',
        ...span('the grass is green'),
        text: 'The grass is green.',
        ref: 'handbook',
        title: 'My Document',
        contextItem: 1,
      },
      {
        kind: 'file_citation',
        ...span('the sky is blue'),
        text: 'The sky is blue.',
        ref: 'handbook',
        title: 'My Document',
        contextItem: 1,
      },
      {
        kind: 'file_citation',
        ...span('water is essential'),
        text: 'Water is essential for life.',
        title: 'PDF Document',
        contextItem: 2,
      },
      {
        kind: 'file_citation',
        ...span('important findings'),
        text: 'These are important findings.',
        title: 'Custom Content Document',
        contextItem: 2,
      },
      {
        kind: 'web_search_citation',
        ...span('Claude Shannon was born on April 30, 1916, in Petoskey, Michigan'),
        text: expect.stringMatching(/^Claude Elwood Shannon/),
        ref: 'https://en.wikipedia.org/wiki/Claude_Shannon',
        title: 'Claude Shannon - Wikipedia',
      },
    ]);
  });

  it('leaves an answer without citations as it was, and sends no citations switch unasked', async () => {
    const bodies = upstream(anthropicText);
    const { key } = await createKey('citations-none');
    const { output: _output, ...unasked } = citedRequest;
    const call = await reasonWithCatalog(catalog, key, unasked, keys);
    const answer = (await call.res.json()) as { output: Record<string, unknown> };
    await call.settled();
    expect(call.res.status).toBe(200);
    expect(answer.output).toEqual({ format: 'text', text: 'Hello!' });
    expect(JSON.stringify(bodies[0])).not.toContain('citations');
  });

  it('streams an annotations event per cited block, and the completed answer carries the same', async () => {
    upstream(anthropicCitations, anthropicCitationsSse);
    const { key } = await createKey('citations-stream');
    const call = await reasonWithCatalog(catalog, key, citedRequest, keys, { Accept: 'text/event-stream' });
    const events = parseSse(await call.res.text());
    await call.settled();
    expect(checkStreamOrder(events)).toEqual([]);
    const streamed = events.flatMap((event) =>
      event.type === 'response.output_text.annotations' ? (event.annotations as Cited[]) : [],
    );
    const text = 'According to the document, the grass is green and the sky is blue.';
    expect(streamed.map((a) => [text.slice(a.start, a.end), a.contextItem, a.ref])).toEqual([
      ['the grass is green', 1, 'handbook'],
      ['the sky is blue', 1, 'handbook'],
    ]);
    const completed = events.at(-1) as {
      type: string;
      response: { output: { text: string; annotations: Cited[] } };
    };
    expect(completed.type).toBe('response.completed');
    expect(completed.response.output.text).toBe(text);
    expect(completed.response.output.annotations).toEqual(streamed);
  });
});

describe('Gemini grounding through /v1/reason', () => {
  it('answers each grounding support as web search citations of its segment', async () => {
    upstream(geminiGrounding);
    const { key } = await createKey('citations-gemini');
    const call = await reasonWithCatalog(
      catalog,
      key,
      {
        task: 'answer',
        instructions: 'Who won Euro 2024?',
        modelPolicy: { pinned: { provider: 'gemini', model: 'gemini-grounded' }, allowFallback: false },
      },
      keys,
    );
    const answer = (await call.res.json()) as { output: { text: string; annotations: Cited[] } };
    await call.settled();
    expect(call.res.status, JSON.stringify(answer)).toBe(200);
    const { text, annotations } = answer.output;
    expect(annotations.map((a) => [a.kind, text.slice(a.start, a.end), a.title, a.contextItem])).toEqual([
      [
        'web_search_citation',
        'Spain won Euro 2024, defeating England 2-1 in the final.',
        'aljazeera.com',
        undefined,
      ],
      ['web_search_citation', text.slice(text.indexOf('This victory')), 'aljazeera.com', undefined],
      ['web_search_citation', text.slice(text.indexOf('This victory')), 'uefa.com', undefined],
    ]);
    expect(annotations[2]?.ref).toMatch(/^https:\/\/vertexaisearch\.cloud\.google\.com\//);
  });
});

describe('citations through the OpenAI door', () => {
  const door = (key: string, path: string, body: unknown) =>
    callWithCatalog(
      catalog,
      path,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${key}` },
        body: JSON.stringify(body),
      },
      keys,
    );
  const upstreamCitation = openaiUrlCitation.choices[0]?.message.annotations[0]?.url_citation;
  const model = 'openai/gpt-4o-search-preview';
  const messages = [{ role: 'user', content: 'Any good news today?' }];

  it('answers url_citation annotations in the provider’s own character offsets', async () => {
    upstream(openaiUrlCitation);
    const { key } = await createKey('citations-door');
    const call = await door(key, '/openai/v1/chat/completions', { model, messages });
    const body = (await call.res.json()) as {
      choices: { message: { content: string; annotations?: unknown[] } }[];
      valve: { output: { annotations: Cited[] } };
    };
    await call.settled();
    expect(call.res.status).toBe(200);
    expect(body.choices[0]?.message.annotations).toEqual([
      { type: 'url_citation', url_citation: upstreamCitation },
    ]);
    expect(body.valve.output.annotations).toHaveLength(1);
  });

  it('streams them in a chunk’s delta.annotations before the finish', async () => {
    upstream(openaiUrlCitation, openaiUrlCitationSse);
    const { key } = await createKey('citations-door-stream');
    const call = await door(key, '/openai/v1/chat/completions', { model, messages, stream: true });
    const text = await call.res.text();
    await call.settled();
    const chunks = text
      .split('\n\n')
      .filter((frame) => frame.startsWith('data: {'))
      .map(
        (frame) =>
          JSON.parse(frame.slice(6)) as {
            choices: { delta: Record<string, unknown>; finish_reason: string | null }[];
          },
      );
    const annotated = chunks.findIndex((chunk) => chunk.choices[0]?.delta.annotations !== undefined);
    expect(chunks[annotated]?.choices[0]?.delta.annotations).toEqual([
      { type: 'url_citation', url_citation: upstreamCitation },
    ]);
    const finished = chunks.findIndex((chunk) => chunk.choices[0]?.finish_reason);
    expect(annotated).toBeGreaterThan(0);
    expect(annotated).toBeLessThan(finished);
  });

  it('answers Responses output_text.annotations, and streams response.output_text.annotation.added', async () => {
    upstream(openaiUrlCitation, openaiUrlCitationSse);
    const { key } = await createKey('citations-responses');
    const call = await door(key, '/openai/v1/responses', { model, input: 'Any good news today?' });
    const body = (await call.res.json()) as { output: { content: { annotations: unknown[] }[] }[] };
    await call.settled();
    const { start_index, end_index, url, title } = upstreamCitation ?? {};
    const flat = { type: 'url_citation', start_index, end_index, url, title };
    expect(body.output[0]?.content[0]?.annotations).toEqual([flat]);

    const streamed = await door(key, '/openai/v1/responses', {
      model,
      input: 'Any good news today?',
      stream: true,
    });
    const events = parseSse(await streamed.res.text());
    await streamed.settled();
    const added = events.filter((event) => event.type === 'response.output_text.annotation.added');
    expect(added).toEqual([
      expect.objectContaining({ annotation_index: 0, content_index: 0, output_index: 0, annotation: flat }),
    ]);
    const done = events.find((event) => event.type === 'response.output_text.done');
    expect(events.indexOf(added[0] as (typeof events)[number])).toBeLessThan(
      events.indexOf(done as (typeof events)[number]),
    );
  });
});
