import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
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
  thinkingModel,
} from '../../helpers/reasoning-loops';
import { type FakeUpstream, fixture, startFakeUpstream } from '../fake-upstream/fake-upstream';
import { type Door, expectReceiptVerifies, receiptIdOf, startDoor } from './door-harness';

// The official `openai` Node SDK running two three-turn tool loops through the door, unchanged: the
// assistant message (Chat) or the output items (Responses) go back as the SDK returned them. The
// upstreams are Claude with extended thinking and Gemini 3, replaying their documented recordings;
// each must get every signature back byte for byte, and the last answer's receipt must verify.

type Body = Record<string, unknown>;
let upstream: FakeUpstream;
let door: Door;
let client: OpenAI;

const tool = (name: string) => ({
  type: 'function' as const,
  function: { name, parameters: { type: 'object', properties: { location: { type: 'string' } } } },
});

beforeAll(async () => {
  upstream = await startFakeUpstream();
  const catalog = {
    providers: [
      {
        id: 'claude',
        kind: 'anthropic',
        baseUrl: `${upstream.url}/claude/v1`,
        apiKeyEnv: 'ANTHROPIC_API_KEY',
      },
      { id: 'gem', kind: 'gemini', baseUrl: `${upstream.url}/gem/v1beta`, apiKeyEnv: 'GEMINI_API_KEY' },
    ],
    models: [
      thinkingModel('claude', 'claude-sonnet-4-6', claudeReasoning),
      thinkingModel('gem', 'gemini-3-pro-preview', gemini3Reasoning),
    ],
  };
  door = await startDoor(catalog, { ANTHROPIC_API_KEY: 'sk-ant-test', GEMINI_API_KEY: 'g-test' });
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

describe('a Claude-with-thinking tool loop through chat.completions, three turns', () => {
  it('replays each thinking block from the assistant message the SDK returned', async () => {
    upstream.script('claude', [
      { type: 'json', body: claudeToolUse },
      { type: 'json', body: claudeSecond },
      { type: 'json', body: fixture('anthropic/text.json') },
    ]);
    const messages: ChatCompletionMessageParam[] = [
      { role: 'user', content: 'Check the sandbox for errors.' },
    ];
    const ask = () =>
      client.chat.completions.create({
        model: 'claude/claude-sonnet-4-6',
        messages,
        tools: [tool('checkSandboxErrors')],
        reasoning_effort: 'low',
      });
    for (const result of ['No errors.', 'Still none.']) {
      const completion = await ask();
      const message = completion.choices[0]?.message;
      expect(message?.tool_calls?.[0]?.id).toBeDefined();
      // The thinking text for display, in the field OpenAI-compatible servers use.
      expect((message as unknown as Body).reasoning_content).toBe(claudeThinking.thinking);
      messages.push(message as ChatCompletionMessageParam);
      messages.push({ role: 'tool', tool_call_id: message?.tool_calls?.[0]?.id ?? '', content: result });
    }
    const last = await ask();
    expect(last.choices[0]?.message.content).toBeTruthy();

    const bodies = upstream.arrivals('claude').map((a) => a.body as Body);
    expect(bodies).toHaveLength(3);
    const assistants = ((bodies[2]?.messages ?? []) as { role: string; content: Body[] }[]).filter(
      (m) => m.role === 'assistant',
    );
    expect(assistants.map((m) => m.content[0])).toEqual([
      {
        type: 'thinking',
        thinking: claudeThinking.thinking,
        signature: claudeThinking.signature,
      },
      {
        type: 'thinking',
        thinking: claudeThinking.thinking,
        signature: claudeSecondSignature,
      },
    ]);
    await expectReceiptVerifies(door, receiptIdOf(last.id));
  });
});

describe('a Gemini 3 tool loop, three turns', () => {
  it('through chat.completions: each call goes back with its thought signature', async () => {
    upstream.script('gem', [
      { type: 'json', body: geminiToolCall },
      { type: 'json', body: geminiSecond },
      { type: 'json', body: fixture('gemini/text.json') },
    ]);
    const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in SF, then Paris?' }];
    const ask = () =>
      client.chat.completions.create({
        model: 'gem/gemini-3-pro-preview',
        messages,
        tools: [tool('weather')],
      });
    for (const result of ['18 °C', '21 °C']) {
      const message = (await ask()).choices[0]?.message;
      messages.push(message as ChatCompletionMessageParam);
      messages.push({ role: 'tool', tool_call_id: message?.tool_calls?.[0]?.id ?? '', content: result });
    }
    const last = await ask();
    expect(last.choices[0]?.finish_reason).toBe('stop');
    const contents = upstream.arrivals('gem')[2]?.body as { contents: { parts: Body[] }[] };
    const calls = contents.contents.flatMap((c) => c.parts.filter((p) => p.functionCall !== undefined));
    expect(calls.map((p) => p.thoughtSignature)).toEqual([geminiSignature, geminiSecondSignature]);
    await expectReceiptVerifies(door, receiptIdOf(last.id));
  });

  it('through responses: the reasoning output item goes back in input as the SDK returned it', async () => {
    upstream.script('gem', [
      { type: 'json', body: geminiToolCall },
      { type: 'json', body: geminiSecond },
      { type: 'json', body: fixture('gemini/text.json') },
    ]);
    const input: ResponseInputItem[] = [{ role: 'user', content: 'Weather in SF, then Paris?' }];
    const tools = [
      {
        type: 'function' as const,
        name: 'weather',
        parameters: tool('weather').function.parameters,
        strict: false,
      },
    ];
    const ask = () => client.responses.create({ model: 'gem/gemini-3-pro-preview', input, tools });
    for (const result of ['18 °C', '21 °C']) {
      const response = await ask();
      const reasoning = response.output.find((item) => item.type === 'reasoning');
      expect(reasoning?.encrypted_content).toMatch(/^valve\.r1\./);
      input.push(...(response.output as ResponseInputItem[]));
      const call = response.output.find((item) => item.type === 'function_call');
      input.push({ type: 'function_call_output', call_id: call?.call_id ?? '', output: result });
    }
    const last = await ask();
    expect(last.output_text).toBeTruthy();
    const contents = upstream.arrivals('gem')[2]?.body as { contents: { parts: Body[] }[] };
    const calls = contents.contents.flatMap((c) => c.parts.filter((p) => p.functionCall !== undefined));
    expect(calls.map((p) => p.thoughtSignature)).toEqual([geminiSignature, geminiSecondSignature]);
  });
});
