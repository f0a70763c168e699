import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Catalog, CatalogModel } from '../../src/policy/catalog';
import anthropicText from '../fixtures/providers/anthropic/text.json';
import geminiText from '../fixtures/providers/gemini/text.json';
import { createKey } from '../helpers/api';
import { simModel } from '../helpers/catalog-fixtures';
import {
  claudeReasoning,
  claudeSecond,
  claudeSecondSignature,
  claudeThinking,
  claudeToolUse,
  gemini3Reasoning,
  geminiSecond,
  geminiSecondSignature,
  geminiSignature,
  geminiToolCall,
} from '../helpers/reasoning-loops';
import { reasonWithCatalog } from '../helpers/with-catalog';

// Two three-turn tool loops through /v1/reason, each on a model that refuses a tool-call turn without
// its reasoning state: Claude with extended thinking (thinking blocks and their signatures) and
// Gemini 3 (thought signatures on function calls). The caller sends back each answer's `reasoning`
// in its assistant turn; the upstream must get every signature back byte for byte, in its own field,
// and no other model may get it.

afterEach(() => {
  vi.restoreAllMocks();
});

const plain = { provider: undefined, simulate: undefined, maxOutputTokens: 64_000, contextTokens: 200_000 };
const reasons = { tools: true, json: 'native' as const, reasoning: true, base64Data: false };
const models: CatalogModel[] = [
  simModel('claude-sonnet-4-6', {
    ...plain,
    provider: 'anthropic',
    priceUsdPerMTok: { input: 3, output: 15 },
    capabilities: reasons,
    reasoning: claudeReasoning,
  }),
  simModel('gemini-3-pro-preview', {
    ...plain,
    provider: 'gemini',
    priceUsdPerMTok: { input: 2, output: 12 },
    capabilities: reasons,
    reasoning: gemini3Reasoning,
  }),
];
const catalog: Catalog = {
  providers: [
    { id: 'anthropic', kind: 'anthropic', apiKeyEnv: 'ANTHROPIC_API_KEY' },
    { id: 'gemini', kind: 'gemini', apiKeyEnv: 'GEMINI_API_KEY' },
  ],
  models,
};
const keys = { ANTHROPIC_API_KEY: 'sk-ant-test', GEMINI_API_KEY: 'g-test' };

type Body = Record<string, unknown>;

/** A fake upstream answering `answers` in order, recording each request body. */
function upstream(answers: unknown[]): Body[] {
  const bodies: Body[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (_input, init) => {
    bodies.push(JSON.parse(String(init?.body)) as Body);
    const answer = answers[bodies.length - 1];
    return new Response(JSON.stringify(answer), { headers: { 'content-type': 'application/json' } });
  });
  return bodies;
}

interface Answer {
  toolCalls: { id: string; name: string; arguments: Record<string, unknown> }[];
  reasoning?: Record<string, unknown>[];
  output: { format: string; text?: string };
  warnings: { code: string; message: string }[];
}

async function turn(
  key: string,
  pinned: { provider: string; model: string },
  conversation: unknown[],
  tool: string,
) {
  const call = await reasonWithCatalog(
    catalog,
    key,
    {
      task: 'loop',
      instructions: 'Use the tool, then answer.',
      conversation,
      tools: [{ name: tool, inputSchema: { type: 'object', properties: { location: { type: 'string' } } } }],
      reasoning: { effort: 'low' },
      modelPolicy: { pinned, allowFallback: false, maxOutputTokens: 16_000 },
    },
    keys,
  );
  expect(call.res.status).toBe(200);
  const answer = (await call.res.json()) as Answer;
  await call.settled();
  return answer;
}

/** The assistant turn that continues an answer: its calls and its reasoning, as the caller sends them. */
const assistantOf = (answer: Answer) => ({
  role: 'assistant',
  toolCalls: answer.toolCalls.map(({ id, name, arguments: args }) => ({ id, name, arguments: args })),
  reasoning: answer.reasoning,
});

describe('a Claude-with-thinking tool loop, three turns through /v1/reason', () => {
  it('sends each turn’s thinking block back first, text and signature unchanged', async () => {
    const bodies = upstream([claudeToolUse, claudeSecond, anthropicText]);
    const { key } = await createKey('claude-loop');
    const claude = { provider: 'anthropic', model: 'claude-sonnet-4-6' };
    const user = { role: 'user', content: 'Check the sandbox for errors.' };

    const first = await turn(key, claude, [user], 'checkSandboxErrors');
    expect(first.reasoning).toEqual([
      {
        provider: 'anthropic',
        model: 'claude-sonnet-4-6',
        text: claudeThinking.thinking,
        signature: claudeThinking.signature,
      },
    ]);
    const toolTurn = (answer: Answer, content: string) => ({
      role: 'tool',
      toolCallId: answer.toolCalls[0]?.id,
      content,
    });
    const history = [user, assistantOf(first), toolTurn(first, 'No errors.')];
    const second = await turn(key, claude, history, 'checkSandboxErrors');
    history.push(assistantOf(second), toolTurn(second, 'Still none.'));
    const third = await turn(key, claude, history, 'checkSandboxErrors');
    expect(third.output.format).toBe('text');

    // Turn 3's request: both assistant turns, each opening with its own thinking block, byte for byte.
    const messages = bodies[2]?.messages as { role: string; content: Body[] }[];
    const assistants = messages.filter((m) => m.role === 'assistant');
    expect(assistants).toHaveLength(2);
    expect(assistants[0]?.content[0]).toEqual({
      type: 'thinking',
      thinking: claudeThinking.thinking,
      signature: claudeThinking.signature,
    });
    expect(assistants[0]?.content[1]).toMatchObject({
      type: 'tool_use',
      id: 'toolu_017R7ACrx7NF7sLDDtvdQ1u9',
    });
    expect(assistants[1]?.content[0]).toEqual({
      type: 'thinking',
      thinking: claudeThinking.thinking,
      signature: claudeSecondSignature,
    });
    // Thinking is never in the system channel, and never text.
    expect(JSON.stringify(bodies[2]?.system)).not.toContain('checkSandboxErrors immediately');
    const texts = messages.flatMap((m) => m.content.filter((b) => b.type === 'text').map((b) => b.text));
    expect(texts.join('')).not.toContain('checkSandboxErrors immediately');
    expect(bodies[2]?.thinking).toEqual({ type: 'enabled', budget_tokens: 4096 });
  });
});

describe('a Gemini 3 tool loop, three turns through /v1/reason', () => {
  it('sends each function call back with its own thought signature', async () => {
    const bodies = upstream([geminiToolCall, geminiSecond, geminiText]);
    const { key } = await createKey('gemini-loop');
    const gemini = { provider: 'gemini', model: 'gemini-3-pro-preview' };
    const user = { role: 'user', content: 'What is the weather in San Francisco, then Paris?' };
    const first = await turn(key, gemini, [user], 'weather');
    const signature = geminiSignature;
    expect(first.reasoning).toEqual([
      { provider: 'gemini', model: 'gemini-3-pro-preview', signature, toolCallId: first.toolCalls[0]?.id },
    ]);
    const history: unknown[] = [
      user,
      assistantOf(first),
      { role: 'tool', toolCallId: first.toolCalls[0]?.id, content: '18 °C' },
    ];
    const second = await turn(key, gemini, history, 'weather');
    expect(second.toolCalls[0]?.id).toBe('fc_second');
    history.push(assistantOf(second), { role: 'tool', toolCallId: 'fc_second', content: '21 °C' });
    const third = await turn(key, gemini, history, 'weather');
    expect(third.output.format).toBe('text');

    const contents = bodies[2]?.contents as { role: string; parts: Body[] }[];
    const calls = contents.flatMap((c) => c.parts.filter((p) => p.functionCall !== undefined));
    expect(calls).toEqual([
      { functionCall: { name: 'weather', args: { location: 'San Francisco' } }, thoughtSignature: signature },
      {
        functionCall: { name: 'weather', args: { location: 'Paris' } },
        thoughtSignature: geminiSecondSignature,
      },
    ]);
    expect(third.warnings.map((w) => w.code)).not.toContain('reasoning.not_replayed');
    // effort low reaches Gemini 3 as its own field, a thinking level.
    expect((bodies[2]?.generationConfig as Body | undefined)?.thinkingConfig).toEqual({
      thinkingLevel: 'low',
    });
  });

  it('sends no reasoning of another model, and signs its unsigned step with Gemini’s documented skip value', async () => {
    const bodies = upstream([claudeToolUse, geminiText]);
    const { key } = await createKey('switch-loop');
    const user = { role: 'user', content: 'Check the sandbox for errors.' };
    const first = await turn(
      key,
      { provider: 'anthropic', model: 'claude-sonnet-4-6' },
      [user],
      'checkSandboxErrors',
    );
    const history = [
      user,
      assistantOf(first),
      { role: 'tool', toolCallId: first.toolCalls[0]?.id, content: 'None.' },
    ];
    const next = await turn(
      key,
      { provider: 'gemini', model: 'gemini-3-pro-preview' },
      history,
      'checkSandboxErrors',
    );
    const sent = JSON.stringify(bodies[1]);
    expect(sent).not.toContain(claudeThinking.signature);
    expect(sent).not.toContain('checkSandboxErrors immediately');
    const contents = bodies[1]?.contents as { role: string; parts: Body[] }[];
    const call = contents.flatMap((c) => c.parts).find((p) => p.functionCall !== undefined);
    expect(call?.thoughtSignature).toBe('skip_thought_signature_validator');
    expect(next.warnings.find((w) => w.code === 'reasoning.not_replayed')?.message).toContain(
      'anthropic/claude-sonnet-4-6',
    );
  });
});
