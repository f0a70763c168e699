import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Catalog } from '../../src/policy/catalog';
import { createKey } from '../helpers/api';
import { simModel } from '../helpers/catalog-fixtures';
import { streamWithCatalog } from '../helpers/stream-call';

// A provider's extra headers from the catalog reach the upstream on the streaming path as on the JSON one.

const catalog: Catalog = {
  providers: [
    {
      id: 'openai',
      kind: 'openai',
      apiKeyEnv: 'OPENAI_API_KEY',
      headers: { 'OpenAI-Organization': 'org-valve' },
    },
  ],
  models: [simModel('gpt-headers', { provider: 'openai', simulate: undefined })],
};

afterEach(() => vi.restoreAllMocks());

describe('provider headers when streaming', () => {
  it('sends the catalog’s extra headers with the streamed call', async () => {
    const { key } = await createKey('stream-headers');
    const seen: Headers[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (_input, init) => {
      seen.push(new Headers(init?.headers));
      const body = [
        `data: ${JSON.stringify({ id: 'c', model: 'gpt-headers', choices: [{ index: 0, delta: { content: 'hi' }, finish_reason: null }] })}`,
        `data: ${JSON.stringify({ id: 'c', model: 'gpt-headers', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 } })}`,
        'data: [DONE]',
        '',
      ].join('\n\n');
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    });
    const { res, settled } = await streamWithCatalog(
      catalog,
      key,
      { task: 't', instructions: 'i' },
      'text/event-stream',
      { OPENAI_API_KEY: 'sk-test' },
    );
    const text = await res.text();
    await settled;
    expect(text).toContain('response.completed');
    expect(seen.map((h) => h.get('OpenAI-Organization'))).toEqual(['org-valve']);
  });
});
