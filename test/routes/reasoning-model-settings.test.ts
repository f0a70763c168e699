import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Catalog } from '../../src/policy/catalog';
import textFixture from '../fixtures/providers/openai/text.json';
import { createKey } from '../helpers/api';
import { simModel } from '../helpers/catalog-fixtures';
import { reasonWithCatalog } from '../helpers/with-catalog';

// The catalog's `capabilities.reasoning` reaches the OpenAI adapter: OpenAI's reasoning models answer
// 400 to a temperature or top_p other than the default, so Valve sends them neither and says so.

afterEach(() => {
  vi.restoreAllMocks();
});

describe('sampling settings and OpenAI reasoning models, through /v1/reason', () => {
  it('drops temperature and topP for a reasoning model and keeps them for one that does not reason', async () => {
    const reasoningCapabilities = {
      tools: true,
      json: 'native' as const,
      reasoning: true,
      base64Data: false,
    };
    const catalog: Catalog = {
      providers: [{ id: 'openai', kind: 'openai', apiKeyEnv: 'OPENAI_API_KEY' }],
      models: [
        simModel('o3', { provider: 'openai', simulate: undefined, capabilities: reasoningCapabilities }),
        simModel('gpt-4.1', { provider: 'openai', simulate: undefined }),
      ],
    };
    const bodies: Record<string, unknown>[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (_input, init) => {
      bodies.push(JSON.parse(String(init?.body)));
      return new Response(JSON.stringify(textFixture), { headers: { 'content-type': 'application/json' } });
    });
    const { key } = await createKey('reasoning-settings');
    const ask = (model: string) =>
      reasonWithCatalog(
        catalog,
        key,
        {
          task: 'answer',
          instructions: 'Answer briefly.',
          conversation: [{ role: 'user', content: 'Hello?' }],
          sampling: { temperature: 0.3, topP: 0.8 },
          modelPolicy: { pinned: { provider: 'openai', model } },
        },
        { OPENAI_API_KEY: 'sk-test' },
      );
    const reasoning = await ask('o3');
    expect(reasoning.res.status).toBe(200);
    const answer = (await reasoning.res.json()) as { warnings: { code: string; message: string }[] };
    await reasoning.settled();
    expect(bodies[0]).toMatchObject({ model: 'o3' });
    expect(bodies[0]).not.toHaveProperty('temperature');
    expect(bodies[0]).not.toHaveProperty('top_p');
    expect(answer.warnings.filter((w) => w.code === 'model.setting_dropped')).toHaveLength(2);

    const plain = await ask('gpt-4.1');
    expect(plain.res.status).toBe(200);
    await plain.settled();
    expect(bodies[1]).toMatchObject({ model: 'gpt-4.1', temperature: 0.3, top_p: 0.8 });
  });
});
