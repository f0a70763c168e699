import Anthropic from '@anthropic-ai/sdk';
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
import { type Door, startDoor } from '../openai/door-harness';

// The official `@anthropic-ai/sdk` client in three-turn tool loops with thinking, through the Anthropic
// door, sending each answer's content back as the SDK returned it (JSON, and assembled from a stream).
// Claude with extended thinking and Gemini 3 upstream, on their recorded payloads: each must get every
// signature back byte for byte, whichever model answered behind the door.

type Body = Record<string, unknown>;
let upstream: FakeUpstream;
let door: Door;
let client: Anthropic;

/**
 * A recorded Messages answer as the SSE events Anthropic streams it in (event order of
 * fixtures/providers/anthropic/thinking.sse.json): each block started, its content in one delta (the
 * signature in a signature_delta), stopped; then message_delta and message_stop.
 */
function streamOf(message: { content: Body[]; stop_reason?: unknown; usage?: unknown } & Body): string[] {
  const frame = (data: Body) => `event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`;
  const frames = [frame({ type: 'message_start', message: { ...message, content: [], stop_reason: null } })];
  message.content.forEach((block, index) => {
    if (block.type === 'thinking') {
      frames.push(
        frame({
          type: 'content_block_start',
          index,
          content_block: { type: 'thinking', thinking: '', signature: '' },
        }),
      );
      frames.push(
        frame({
          type: 'content_block_delta',
          index,
          delta: { type: 'thinking_delta', thinking: block.thinking },
        }),
      );
      frames.push(
        frame({
          type: 'content_block_delta',
          index,
          delta: { type: 'signature_delta', signature: block.signature },
        }),
      );
    } else if (block.type === 'tool_use') {
      frames.push(frame({ type: 'content_block_start', index, content_block: { ...block, input: {} } }));
      frames.push(
        frame({
          type: 'content_block_delta',
          index,
          delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
        }),
      );
    } else {
      frames.push(frame({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } }));
      frames.push(
        frame({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text } }),
      );
    }
    frames.push(frame({ type: 'content_block_stop', index }));
  });
  frames.push(
    frame({ type: 'message_delta', delta: { stop_reason: message.stop_reason }, usage: message.usage }),
  );
  frames.push(frame({ type: 'message_stop' }));
  return frames;
}

const tool = (name: string) => ({
  name,
  input_schema: { type: 'object' as const, properties: { location: { type: 'string' } } },
});

beforeAll(async () => {
  upstream = await startFakeUpstream();
  door = await startDoor(
    {
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
    },
    { ANTHROPIC_API_KEY: 'sk-ant-test', GEMINI_API_KEY: 'g-test' },
  );
  client = new Anthropic({ baseURL: `${door.valve.url}/anthropic`, apiKey: door.valve.key, maxRetries: 0 });
}, 60_000);
afterAll(async () => {
  await door?.stop();
  await upstream?.close();
});
beforeEach(() => {
  door.reset();
  upstream.clear();
});

/** Runs a three-turn loop, each answer's content sent back as the SDK gave it. */
async function loop(model: string, toolName: string, streamed: boolean) {
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Check, then check again.' }];
  const ask = async () => {
    const params = {
      model,
      max_tokens: 16_000,
      messages,
      tools: [tool(toolName)],
      thinking: { type: 'enabled' as const, budget_tokens: 2048 },
    };
    return streamed ? client.messages.stream(params).finalMessage() : client.messages.create(params);
  };
  for (const result of ['None.', 'Still none.']) {
    const message = await ask();
    expect(message.stop_reason).toBe('tool_use');
    expect(message.content.some((block) => block.type === 'thinking')).toBe(true);
    messages.push({ role: 'assistant', content: message.content });
    const use = message.content.find((block) => block.type === 'tool_use');
    messages.push({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: use?.id ?? '', content: result }],
    });
  }
  return ask();
}

describe('the @anthropic-ai/sdk client in tool loops with thinking, through /anthropic', () => {
  for (const streamed of [false, true]) {
    it(`Claude gets each thinking block back first, byte for byte (${streamed ? 'streamed' : 'JSON'})`, async () => {
      const answers = [claudeToolUse, claudeSecond, fixture('anthropic/text.json')] as (Body & {
        content: Body[];
      })[];
      upstream.script(
        'claude',
        answers.map((body) => (streamed ? { type: 'sse', frames: streamOf(body) } : { type: 'json', body })),
      );
      const last = await loop('claude/claude-sonnet-4-6', 'checkSandboxErrors', streamed);
      expect(last.stop_reason).toBe('end_turn');
      const body = upstream.arrivals('claude')[2]?.body as { messages: { role: string; content: Body[] }[] };
      const assistants = body.messages.filter((m) => m.role === 'assistant');
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
    });
  }

  it('Gemini 3 behind the door gets each call back with its thought signature', async () => {
    upstream.script('gem', [
      { type: 'json', body: geminiToolCall },
      { type: 'json', body: geminiSecond },
      { type: 'json', body: fixture('gemini/text.json') },
    ]);
    await loop('gem/gemini-3-pro-preview', 'weather', false);
    const body = upstream.arrivals('gem')[2]?.body as { contents: { parts: Body[] }[] };
    const calls = body.contents.flatMap((c) => c.parts.filter((p) => p.functionCall !== undefined));
    expect(calls.map((p) => p.thoughtSignature)).toEqual([geminiSignature, geminiSecondSignature]);
  });
});
