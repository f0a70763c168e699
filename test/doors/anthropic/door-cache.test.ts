import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Catalog } from '../../../src/policy/catalog';
import anthropicText from '../../fixtures/providers/anthropic/text.json';
import { createKey } from '../../helpers/api';
import { simModel } from '../../helpers/catalog-fixtures';
import { callWithCatalog } from '../../helpers/with-catalog';

// cache_control through /anthropic/v1/messages to an Anthropic model behind a fake upstream: the marks
// that still end repeating bytes (the last tool, the last system block) reach the upstream body, the
// system text is the one Valve always renders, the others are named in a warning, and the cached
// usage the upstream reports is billed at the catalog's cache-read and cache-write prices.

afterEach(() => {
  vi.restoreAllMocks();
});

const catalog: Catalog = {
  providers: [{ id: 'anthropic', kind: 'anthropic', apiKeyEnv: 'ANTHROPIC_API_KEY' }],
  models: [
    simModel('claude-sonnet-4-6', {
      provider: 'anthropic',
      simulate: undefined,
      priceUsdPerMTok: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
      contextTokens: 200_000,
    }),
  ],
};

// The recorded answer, its usage that of a call that read 2,000 tokens from the cache and wrote 1,000.
const cachedAnswer = structuredClone(anthropicText);
cachedAnswer.usage = {
  ...anthropicText.usage,
  input_tokens: 10,
  cache_read_input_tokens: 2000,
  cache_creation_input_tokens: 1000,
  cache_creation: { ephemeral_5m_input_tokens: 1000, ephemeral_1h_input_tokens: 0 },
  output_tokens: 5,
};

const cc = { type: 'ephemeral' };
// The door joins the system blocks with a blank line into the Reason request's instructions.
const instructions = 'You are a support agent.\n\nAnswer in one sentence.';
const body = {
  model: 'anthropic/claude-sonnet-4-6',
  max_tokens: 256,
  system: [
    { type: 'text', text: 'You are a support agent.' },
    { type: 'text', text: 'Answer in one sentence.', cache_control: cc },
  ],
  tools: [
    { name: 'lookup_order', input_schema: { type: 'object' } },
    { name: 'refund', description: 'Refunds an order.', input_schema: { type: 'object' }, cache_control: cc },
  ],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Where is my order?', cache_control: cc }] }],
};

describe('cache_control through the Anthropic door', () => {
  it('reaches the upstream on the last tool and the instructions, and bills cached tokens at the cached rates', async () => {
    const sent: Record<string, unknown>[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (_input, init) => {
      sent.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
      return new Response(JSON.stringify(cachedAnswer), { headers: { 'content-type': 'application/json' } });
    });
    const { key } = await createKey('anth-cache');
    const { res, settled } = await callWithCatalog(
      catalog,
      '/anthropic/v1/messages',
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'x-api-key': key },
        body: JSON.stringify(body),
      },
      { ANTHROPIC_API_KEY: 'sk-ant-test' },
    );
    const json = (await res.json()) as {
      usage: Record<string, number>;
      valve: {
        costUsd: number;
        usage: Record<string, number>;
        warnings?: { code: string; message: string }[];
      };
    };
    await settled();
    expect(res.status).toBe(200);
    expect(sent).toHaveLength(1);
    const upstream = sent[0] as {
      system: { type: string; text: string }[];
      tools: unknown[];
      messages: unknown;
    };

    // The instructions, then the rest of the system text Valve renders (policy and canary), unchanged.
    expect(upstream.system).toEqual([
      { type: 'text', text: instructions, cache_control: cc },
      { type: 'text', text: expect.stringMatching(/^\n\nThe material for this request is enclosed in/) },
    ]);
    expect(upstream.tools).toEqual([
      { name: 'lookup_order', input_schema: { type: 'object' } },
      {
        name: 'refund',
        description: 'Refunds an order.',
        input_schema: { type: 'object' },
        cache_control: cc,
      },
    ]);
    expect(JSON.stringify(upstream.messages)).not.toContain('cache_control');

    // The mark on the user message cannot be kept: named, not silently dropped.
    expect(json.valve.warnings).toContainEqual({
      code: 'anthropic.cache_dropped',
      message: expect.stringContaining('messages[0].content[0].cache_control'),
    });

    // 10 fresh × $3 + 2,000 read × $0.30 + 1,000 written × $3.75 + 5 out × $15, per million.
    expect(json.valve.costUsd).toBeCloseTo((10 * 3 + 2000 * 0.3 + 1000 * 3.75 + 5 * 15) / 1e6, 12);
    expect(json.valve.usage).toMatchObject({ inputTokens: 3010, cacheReadTokens: 2000, outputTokens: 5 });
    expect(json.usage).toMatchObject({ cache_read_input_tokens: 2000, output_tokens: 5 });
  });

  it('sends system as the one string it always was when nothing is marked', async () => {
    const sent: Record<string, unknown>[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (_input, init) => {
      sent.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
      return new Response(JSON.stringify(anthropicText), { headers: { 'content-type': 'application/json' } });
    });
    const { key } = await createKey('anth-nocache');
    const plain = {
      ...body,
      system: instructions,
      tools: undefined,
      messages: [{ role: 'user', content: 'Where is my order?' }],
    };
    const { res, settled } = await callWithCatalog(
      catalog,
      '/anthropic/v1/messages',
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'x-api-key': key },
        body: JSON.stringify(plain),
      },
      { ANTHROPIC_API_KEY: 'sk-ant-test' },
    );
    await res.text();
    await settled();
    expect(res.status).toBe(200);
    const system = (sent[0] as { system: unknown }).system;
    expect(typeof system).toBe('string');
    expect(String(system).startsWith(`${instructions}\n\nThe material for this request`)).toBe(true);
    expect(JSON.stringify(sent[0])).not.toContain('cache_control');
  });
});
