import { describe, expect, it } from 'vitest';
import type { ReasonRequest } from '../../src/contracts/reason-request';
import type { WorkersAiBinding } from '../../src/model/model-adapter';
import type { ModelRequest } from '../../src/model/model-request';
import { renderPrompt } from '../../src/prompt/render-prompt';
import { anthropicAdapter } from '../../src/providers/anthropic/anthropic-adapter';
import { geminiAdapter } from '../../src/providers/gemini/gemini-adapter';
import { openaiAdapter } from '../../src/providers/openai/openai-adapter';
import { simAdapter } from '../../src/providers/sim/sim-adapter';
import { workersAiAdapter } from '../../src/providers/workers-ai/workers-ai-adapter';
import anthropicText from '../fixtures/providers/anthropic/text.json';
import geminiText from '../fixtures/providers/gemini/text.json';
import openaiText from '../fixtures/providers/openai/text.json';
import workersAiText from '../fixtures/providers/workers-ai/text.json';
import { callOptions, fakeFetch, jsonResponse } from './fake-fetch';

// The second step of an agent loop on every adapter: the model's earlier tool call and the caller's
// tool result go out in each provider's own tool-message format, the result as the rendered untrusted
// region, and the generation settings reach the providers that take them (the others say what they
// dropped instead of failing).

const nonce = '0f1e2d3c4b5a69788796a5b4c3d2e1f0';
const loop: ReasonRequest = {
  task: 'track',
  instructions: 'Track orders.',
  tools: [{ name: 'lookup', inputSchema: { type: 'object', properties: { order: { type: 'integer' } } } }],
  conversation: [
    { role: 'user', content: 'Use lookup: where is order 42?' },
    { role: 'assistant', toolCalls: [{ id: 'call_1', name: 'lookup', arguments: { order: 42 } }] },
    { role: 'tool', toolCallId: 'call_1', content: { status: 'shipped' } },
  ],
};
const prompt = renderPrompt(loop, { nonce, canary: 'c4n4ry' });
const region = `<data-${nonce} id="t-call_1" label="result of lookup">\n{&quot;status&quot;:&quot;shipped&quot;}\n</data-${nonce}>`;
const reminder = prompt.messages.at(-1)?.content[0];
const reminderText = reminder?.type === 'text' ? reminder.text : '';
const system = prompt.messages[0]?.content[0];
const systemText = system?.type === 'text' ? system.text : '';

const request: ModelRequest = {
  messages: prompt.messages,
  tools: [{ name: 'lookup', input_schema: { type: 'object', properties: { order: { type: 'integer' } } } }],
  tool_choice: 'auto',
  settings: {
    max_tokens: 100,
    temperature: 0.5,
    top_p: 0.9,
    stop: ['END'],
    seed: 7,
    parallel_tool_calls: false,
  },
};

describe('the second step of a tool loop, on the wire', () => {
  it('openai: assistant tool_calls, a tool message with tool_call_id, and every setting', async () => {
    const { fetch, calls } = fakeFetch(() => jsonResponse(openaiText));
    const response = await openaiAdapter.generate(request, callOptions(fetch));
    const body = calls[0]?.body as Record<string, unknown>;
    expect(body.messages).toEqual([
      { role: 'system', content: systemText },
      { role: 'user', content: 'Use lookup: where is order 42?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"order":42}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: region },
      { role: 'user', content: reminderText },
    ]);
    expect(body).toMatchObject({
      temperature: 0.5,
      top_p: 0.9,
      stop: ['END'],
      seed: 7,
      tool_choice: 'auto',
      parallel_tool_calls: false,
    });
    expect(response.warnings?.filter((w) => w.code === 'model.setting_dropped') ?? []).toEqual([]);
  });

  it('anthropic: tool_use, then tool_result first in the next user turn; no seed, said so', async () => {
    const { fetch, calls } = fakeFetch(() => jsonResponse(anthropicText));
    const { temperature: _, ...withoutTemperature } = request.settings ?? {};
    const response = await anthropicAdapter.generate(
      { ...request, settings: withoutTemperature },
      callOptions(fetch),
    );
    const body = calls[0]?.body as Record<string, unknown>;
    expect(body.system).toBe(systemText);
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Use lookup: where is order 42?' }] },
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'call_1', name: 'lookup', input: { order: 42 } }],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_1', content: region },
          { type: 'text', text: reminderText },
        ],
      },
    ]);
    expect(body).toMatchObject({
      top_p: 0.9,
      stop_sequences: ['END'],
      tool_choice: { type: 'auto', disable_parallel_tool_use: true },
    });
    expect(body.seed).toBeUndefined();
    expect(response.warnings?.map((w) => w.message)).toContainEqual(expect.stringContaining('sampling.seed'));
  });

  it('anthropic: sends temperature alone when both are given, and drops a temperature above 1', async () => {
    const { fetch, calls } = fakeFetch(() => jsonResponse(anthropicText));
    const both = await anthropicAdapter.generate(request, callOptions(fetch));
    expect(calls[0]?.body).toMatchObject({ temperature: 0.5 });
    expect(calls[0]?.body.top_p).toBeUndefined();
    expect(both.warnings?.map((w) => w.message)).toContainEqual(expect.stringContaining('sampling.topP'));
    const hot = await anthropicAdapter.generate(
      { ...request, settings: { temperature: 1.5 } },
      callOptions(fetch),
    );
    expect(calls[1]?.body.temperature).toBeUndefined();
    expect(hot.warnings?.map((w) => w.message)).toContainEqual(
      expect.stringContaining('sampling.temperature'),
    );
  });

  it('gemini: functionCall and functionResponse parts, the settings in generationConfig', async () => {
    const { fetch, calls } = fakeFetch(() => jsonResponse(geminiText));
    const response = await geminiAdapter.generate(request, callOptions(fetch));
    const body = calls[0]?.body as Record<string, unknown>;
    expect(body.systemInstruction).toEqual({ parts: [{ text: systemText }] });
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'Use lookup: where is order 42?' }] },
      { role: 'model', parts: [{ functionCall: { name: 'lookup', args: { order: 42 } } }] },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'lookup', response: { content: region } } },
          { text: reminderText },
        ],
      },
    ]);
    expect(body.generationConfig).toEqual({
      maxOutputTokens: 100,
      temperature: 0.5,
      topP: 0.9,
      stopSequences: ['END'],
      seed: 7,
    });
    expect(body.toolConfig).toEqual({ functionCallingConfig: { mode: 'AUTO' } });
    expect(response.warnings?.map((w) => w.message)).toContainEqual(
      expect.stringContaining('parallelToolCalls'),
    );
  });

  it('workers-ai: tool_calls and a tool message with its name; no stop, said so', async () => {
    const seen: Record<string, unknown>[] = [];
    const ai: WorkersAiBinding = {
      async run(_model, inputs) {
        seen.push(inputs);
        return workersAiText;
      },
    };
    const response = await workersAiAdapter.generate(request, callOptions(fetch, { ai }));
    expect(seen[0]?.messages).toEqual([
      { role: 'system', content: systemText },
      { role: 'user', content: 'Use lookup: where is order 42?' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"order":42}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', name: 'lookup', content: region },
      { role: 'user', content: reminderText },
    ]);
    expect(seen[0]).toMatchObject({ temperature: 0.5, top_p: 0.9, seed: 7 });
    expect(seen[0]?.stop).toBeUndefined();
    const messages = response.warnings?.map((w) => w.message) ?? [];
    expect(messages).toContainEqual(expect.stringContaining('sampling.stop'));
    expect(messages).toContainEqual(expect.stringContaining('parallelToolCalls'));
  });

  it('workers-ai: keeps toolChoice none by offering no tools', () => {
    const inputs = workersAiAdapter.toWireBody?.({ ...request, tool_choice: 'none' }, callOptions(fetch)) as {
      tools?: unknown;
    };
    expect(inputs.tools).toBeUndefined();
  });

  it('sim: answers in text once the tool result is in, and stops at a stop sequence', async () => {
    const first = renderPrompt(
      { ...loop, conversation: loop.conversation?.slice(0, 1) },
      { nonce, canary: 'c' },
    );
    const call = await simAdapter.generate(
      { messages: first.messages, tools: request.tools },
      callOptions(fetch, { model: 'fast' }),
    );
    expect(call.finish_reason).toBe('tool_calls');
    const answer = await simAdapter.generate(
      { ...request, settings: { stop: ['digest'] } },
      callOptions(fetch, { model: 'fast' }),
    );
    expect(answer.finish_reason).toBe('stop');
    expect(answer.message.content).toEqual([
      { type: 'text', text: '[simulated by sim/fast] A deterministic answer (' },
    ]);
    const forced = await simAdapter.generate({ ...request, tool_choice: 'required' }, callOptions(fetch));
    expect(forced.finish_reason).toBe('tool_calls');
  });
});
