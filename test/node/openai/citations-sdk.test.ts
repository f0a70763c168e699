import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeUpstream, fixture, sseFixture, startFakeUpstream } from '../fake-upstream/fake-upstream';
import { type Door, expectReceiptVerifies, receiptIdOf, startDoor } from './door-harness';

// The official `openai` Node SDK reading citations through the door: an OpenAI-kind model on the fake
// upstream answers the web search guide's url_citation answer (fixtures/providers/openai/url-citation*),
// and the SDK finds the citation where it finds OpenAI's own, at the same character offsets, with a
// receipt the auditor's CLI verifies (the receipt commits to the answer's annotations).

let upstream: FakeUpstream;
let door: Door;
let client: OpenAI;
const recorded = fixture('openai/url-citation.json') as {
  choices: { message: { content: string; annotations: { url_citation: Record<string, unknown> }[] } }[];
};
const citation = recorded.choices[0]?.message.annotations[0]?.url_citation;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  const catalog = {
    providers: [
      { id: 'search', kind: 'openai', baseUrl: `${upstream.url}/search/v1`, apiKeyEnv: 'OPENAI_API_KEY' },
    ],
    models: [
      {
        provider: 'search',
        model: 'gpt-4o-search-preview',
        regions: ['lab'],
        priceUsdPerMTok: { input: 1, output: 4 },
        quality: 90,
        latency: { ttftMsP50: 40, ttftMsP90: 80, outputTokensPerSec: 400 },
        contextTokens: 32_000,
        maxOutputTokens: 4096,
        capabilities: { tools: true, json: 'native', reasoning: false, base64Data: false },
        maxPrivacy: 'confidential',
      },
    ],
  };
  door = await startDoor(catalog, { OPENAI_API_KEY: 'sk-test' });
  client = new OpenAI({ baseURL: door.baseURL, apiKey: door.valve.key, fetch: door.fetch, maxRetries: 0 });
}, 60_000);
afterAll(async () => {
  await door?.stop();
  await upstream?.close();
});
beforeEach(() => {
  door.reset();
  upstream.clear();
});

describe('the openai SDK reading citations through /openai/v1', () => {
  it('finds a url_citation in message.annotations, at the upstream’s offsets, with a receipt that verifies', async () => {
    upstream.script('search', [{ type: 'json', body: recorded }]);
    const completion = await client.chat.completions.create({
      model: 'auto',
      messages: [{ role: 'user', content: 'Any good news today?' }],
    });
    const message = completion.choices[0]?.message;
    expect(message?.content).toBe(recorded.choices[0]?.message.content);
    expect(message?.annotations).toEqual([{ type: 'url_citation', url_citation: citation }]);
    await expectReceiptVerifies(door, receiptIdOf(completion.id));
  });

  it('finds it in a streamed Responses answer’s output_text annotations', async () => {
    upstream.script('search', [{ type: 'sse', frames: sseFixture('openai/url-citation.sse.json') }]);
    const stream = client.responses.stream({ model: 'auto', input: 'Any good news today?' });
    const added: unknown[] = [];
    stream.on('response.output_text.annotation.added', (event) => added.push(event.annotation));
    const response = await stream.finalResponse();
    const part = response.output.flatMap((item) => (item.type === 'message' ? item.content : []))[0];
    const flat = { type: 'url_citation', ...citation };
    expect(part?.type === 'output_text' && part.annotations).toEqual([flat]);
    expect(added).toEqual([flat]);
  });
});
