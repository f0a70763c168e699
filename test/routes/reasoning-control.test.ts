import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Catalog, CatalogModel } from '../../src/policy/catalog';
import anthropicText from '../fixtures/providers/anthropic/text.json';
import geminiText from '../fixtures/providers/gemini/text.json';
import openaiText from '../fixtures/providers/openai/text.json';
import { createKey } from '../helpers/api';
import { simModel } from '../helpers/catalog-fixtures';
import { callWithCatalog, reasonWithCatalog } from '../helpers/with-catalog';

// `reasoning` through /v1/reason and the OpenAI door reaches each provider as its own field, and the
// thinking budget Valve sends fits what maxCostUsd leaves: with an upstream that bills every token of
// its thinking budget as output, the spend stays within the cap.

afterEach(() => {
  vi.restoreAllMocks();
});

const plain = { provider: undefined, simulate: undefined, maxOutputTokens: 64_000, contextTokens: 200_000 };
const reasons = { tools: true, json: 'native' as const, reasoning: true, base64Data: false };
const models: CatalogModel[] = [
  simModel('gpt-5.4-mini', {
    ...plain,
    provider: 'openai',
    priceUsdPerMTok: { input: 0.75, output: 4.5 },
    capabilities: reasons,
    reasoning: { control: 'effort', canDisable: true, defaultOn: true, billedAsOutput: true },
  }),
  simModel('claude-haiku-4-5', {
    ...plain,
    provider: 'anthropic',
    priceUsdPerMTok: { input: 1, output: 5 },
    capabilities: reasons,
    reasoning: {
      control: 'budget',
      minBudgetTokens: 1024,
      canDisable: true,
      defaultOn: false,
      billedAsOutput: true,
    },
  }),
  simModel('gemini-2.5-flash', {
    ...plain,
    provider: 'gemini',
    priceUsdPerMTok: { input: 0.3, output: 2.5 },
    capabilities: reasons,
    reasoning: {
      control: 'budget',
      minBudgetTokens: 0,
      maxBudgetTokens: 24_576,
      canDisable: true,
      defaultOn: true,
      billedAsOutput: true,
    },
  }),
];
const catalog: Catalog = {
  providers: [
    { id: 'openai', kind: 'openai', apiKeyEnv: 'OPENAI_API_KEY' },
    { id: 'anthropic', kind: 'anthropic', apiKeyEnv: 'ANTHROPIC_API_KEY' },
    { id: 'gemini', kind: 'gemini', apiKeyEnv: 'GEMINI_API_KEY' },
  ],
  models,
};
const keys = { OPENAI_API_KEY: 'sk-test', ANTHROPIC_API_KEY: 'sk-ant-test', GEMINI_API_KEY: 'g-test' };

/** Fake upstreams answering each provider's recorded text answer; the Gemini one bills `thoughts`. */
function upstreams(thoughts?: (body: Record<string, unknown>) => number) {
  const bodies: Record<string, unknown>[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
    bodies.push(body);
    let answer: unknown = openaiText;
    if (url.includes('anthropic')) answer = anthropicText;
    if (url.includes('googleapis')) {
      const billed = thoughts?.(body) ?? geminiText.usageMetadata.thoughtsTokenCount;
      answer = {
        ...geminiText,
        usageMetadata: {
          ...geminiText.usageMetadata,
          thoughtsTokenCount: billed,
          totalTokenCount: 9 + 28 + billed,
        },
      };
    }
    return new Response(JSON.stringify(answer), { headers: { 'content-type': 'application/json' } });
  });
  return bodies;
}

interface Answer {
  costUsd: number;
  usage: { outputTokens: number; reasoningTokens: number };
  decision: { excluded: { provider: string; model: string; reason: string; detail: string }[] };
}

async function ask(key: string, provider: string, model: string, reasoning: unknown, policy: object = {}) {
  const call = await reasonWithCatalog(
    catalog,
    key,
    {
      task: 'answer',
      instructions: 'Answer briefly.',
      conversation: [{ role: 'user', content: 'How many r are in strawberry?' }],
      reasoning,
      modelPolicy: { pinned: { provider, model }, allowFallback: false, maxOutputTokens: 40_000, ...policy },
    },
    keys,
  );
  const status = call.res.status;
  const answer = (await call.res.json()) as Answer;
  await call.settled();
  return { status, answer };
}

const thinkingOf = (body: Record<string, unknown> | undefined) => {
  const config = (body?.generationConfig as Record<string, unknown> | undefined)?.thinkingConfig;
  return { reasoning_effort: body?.reasoning_effort, thinking: body?.thinking, thinkingConfig: config };
};

describe('reasoning through /v1/reason', () => {
  it('sends each effort level as each provider’s own field', async () => {
    const bodies = upstreams();
    const { key } = await createKey('reasoning-effort');
    const table: Record<string, unknown>[] = [];
    for (const effort of ['minimal', 'low', 'medium', 'high'] as const) {
      for (const entry of models) {
        const { status } = await ask(key, entry.provider, entry.model, { effort });
        expect(status).toBe(200);
        table.push({ effort, model: `${entry.provider}/${entry.model}`, ...thinkingOf(bodies.at(-1)) });
      }
    }
    // max_tokens is 40,000 here, so 30,000 is left for thinking after a quarter for the answer.
    const budgets = { minimal: 1024, low: 4096, medium: 8192, high: 24_576 };
    for (const row of table) {
      const effort = row.effort as keyof typeof budgets;
      if (row.model === 'openai/gpt-5.4-mini') expect(row.reasoning_effort).toBe(effort);
      if (row.model === 'anthropic/claude-haiku-4-5')
        expect(row.thinking).toEqual({ type: 'enabled', budget_tokens: budgets[effort] });
      if (row.model === 'gemini/gemini-2.5-flash')
        expect(row.thinkingConfig).toEqual({ thinkingBudget: budgets[effort] });
    }
  }, 60_000);

  it('gives Gemini 2.5’s default thinking an explicit budget inside max_tokens when the caller says nothing', async () => {
    const bodies = upstreams();
    const { key } = await createKey('reasoning-default');
    const { status } = await ask(key, 'gemini', 'gemini-2.5-flash', undefined, { maxOutputTokens: 2000 });
    expect(status).toBe(200);
    expect(bodies[0]?.generationConfig).toEqual({
      maxOutputTokens: 2000,
      thinkingConfig: { thinkingBudget: 1500 },
    });
  });

  it('cuts the thinking budget to what maxCostUsd leaves, and the spend stays within the cap', async () => {
    // The upstream bills its whole thinking budget as thoughts, on top of the recorded answer.
    const bodies = upstreams((body) => {
      const config = body.generationConfig as { thinkingConfig: { thinkingBudget: number } };
      return config.thinkingConfig.thinkingBudget;
    });
    const { key } = await createKey('reasoning-cost');
    for (const maxCostUsd of [0.01, 0.002]) {
      const { status, answer } = await ask(
        key,
        'gemini',
        'gemini-2.5-flash',
        { effort: 'high' },
        { maxCostUsd },
      );
      expect(status).toBe(200);
      const config = bodies.at(-1)?.generationConfig as {
        maxOutputTokens: number;
        thinkingConfig: { thinkingBudget: number };
      };
      expect(config.thinkingConfig.thinkingBudget).toBeLessThan(24_576);
      expect(config.thinkingConfig.thinkingBudget).toBeLessThanOrEqual(config.maxOutputTokens * 0.75);
      expect(answer.usage.reasoningTokens).toBe(config.thinkingConfig.thinkingBudget);
      expect(answer.costUsd).toBeLessThanOrEqual(maxCostUsd);
    }
  });

  it('refuses a pinned model whose least thinking budget the money left cannot pay for, saying why', async () => {
    const bodies = upstreams();
    const { key } = await createKey('reasoning-refused');
    const { status, answer } = await ask(
      key,
      'anthropic',
      'claude-haiku-4-5',
      { effort: 'low' },
      { maxCostUsd: 0.005 },
    );
    expect(status).toBe(422);
    expect(bodies).toHaveLength(0);
    expect(JSON.stringify(answer)).toContain('thinking needs at least 1024 tokens');
    const fits = await ask(key, 'anthropic', 'claude-haiku-4-5', { effort: 'high' }, { maxCostUsd: 0.01 });
    expect(fits.status).toBe(200);
    // The budget is max_tokens (what $0.01 less the input pays for at $5/M) less a quarter for the answer.
    const maxTokens = bodies[0]?.max_tokens as number;
    expect(maxTokens).toBeLessThan(2000);
    expect(bodies[0]?.thinking).toEqual({
      type: 'enabled',
      budget_tokens: maxTokens - Math.ceil(maxTokens / 4),
    });
    expect(fits.answer.costUsd).toBeLessThanOrEqual(0.01);
  });

  it('excludes a model that does not reason from a request that asks for reasoning', async () => {
    upstreams();
    const { key } = await createKey('reasoning-capability');
    const plainCatalog: Catalog = {
      ...catalog,
      models: [
        {
          ...models[0],
          capabilities: { ...reasons, reasoning: false },
          reasoning: undefined,
        } as CatalogModel,
      ],
    };
    const call = await reasonWithCatalog(
      plainCatalog,
      key,
      { task: 'answer', instructions: 'Answer.', reasoning: { effort: 'low' } },
      keys,
    );
    expect(call.res.status).toBe(422);
    expect(await call.res.text()).toContain('does not reason, and the request asks for reasoning');
    await call.settled();
  });
});

describe('reasoning_effort through the OpenAI door', () => {
  it('reaches OpenAI as reasoning_effort and Gemini as thinkingBudget, with no param_ignored warning', async () => {
    const bodies = upstreams();
    const { key } = await createKey('reasoning-door');
    for (const model of ['openai/gpt-5.4-mini', 'gemini/gemini-2.5-flash']) {
      const call = await callWithCatalog(
        catalog,
        '/openai/v1/chat/completions',
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${key}` },
          body: JSON.stringify({
            model,
            messages: [{ role: 'user', content: 'Hi' }],
            reasoning_effort: 'low',
            max_completion_tokens: 10_000,
          }),
        },
        keys,
      );
      expect(call.res.status).toBe(200);
      expect(await call.res.text()).not.toContain('param_ignored');
      await call.settled();
    }
    expect(bodies[0]).toMatchObject({ reasoning_effort: 'low', max_completion_tokens: 10_000 });
    expect(bodies[1]?.generationConfig).toMatchObject({
      maxOutputTokens: 10_000,
      thinkingConfig: { thinkingBudget: 4096 },
    });
  });
});
