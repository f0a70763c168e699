import { describe, expect, it } from 'vitest';
import type { WorkersAiBinding } from '../../../src/model/model-adapter';
import { workersAiAdapter } from '../../../src/providers/workers-ai/workers-ai-adapter';
import textJson from '../../fixtures/providers/workers-ai/text.json';
import textSse from '../../fixtures/providers/workers-ai/text.sse.json';
import {
  callOptions,
  drain,
  rejection,
  sseFrames,
  sseResponse,
  streamedText,
  trustedText,
  trustRequest,
  untrustedText,
} from '../fake-fetch';

function fakeAi(answer: (model: string, inputs: Record<string, unknown>) => unknown) {
  const calls: { model: string; inputs: Record<string, unknown> }[] = [];
  const ai: WorkersAiBinding = {
    async run(model, inputs) {
      calls.push({ model, inputs });
      return answer(model, inputs);
    },
  };
  return { ai, calls };
}

const noFetch = (() => Promise.reject(new Error('the binding, not fetch'))) as typeof fetch;

describe('workers-ai adapter', () => {
  it('runs the model through the binding, trusted text only in the system message', async () => {
    const { ai, calls } = fakeAi(() => textJson);
    const response = await workersAiAdapter.generate(
      trustRequest,
      callOptions(noFetch, { ai, model: '@cf/meta/llama-3.1-8b-instruct' }),
    );
    expect(calls[0]).toEqual({
      model: '@cf/meta/llama-3.1-8b-instruct',
      inputs: {
        messages: [
          { role: 'system', content: trustedText },
          { role: 'user', content: untrustedText },
        ],
        max_tokens: 256,
        temperature: 0.2,
      },
    });
    expect(response).toEqual({
      message: { role: 'assistant', content: [{ type: 'text', text: textJson.response }] },
      usage: { input_tokens: 23, output_tokens: 26 },
      finish_reason: 'other',
      model: '@cf/meta/llama-3.1-8b-instruct',
    });
  });

  it('asks for JSON with response_format and reads an object answer as the value', async () => {
    const { ai, calls } = fakeAi(() => ({ response: { ok: true } }));
    const response = await workersAiAdapter.generate(
      { ...trustRequest, output: { schema: { type: 'object' } } },
      callOptions(noFetch, { ai }),
    );
    expect(calls[0]?.inputs.response_format).toEqual({
      type: 'json_schema',
      json_schema: { type: 'object' },
    });
    expect(response.message.content).toEqual([{ type: 'json', value: { ok: true } }]);
  });

  it('reports tool calls', async () => {
    const { ai } = fakeAi(() => ({
      response: null,
      tool_calls: [{ name: 'weather', arguments: { city: 'Oslo' } }],
    }));
    const response = await workersAiAdapter.generate(trustRequest, callOptions(noFetch, { ai }));
    expect(response.message.content).toEqual([
      { type: 'tool_call', id: 'call_0', name: 'weather', args: { city: 'Oslo' } },
    ]);
    expect(response.finish_reason).toBe('tool_calls');
  });

  it.each([
    ['3040: Capacity temporarily exceeded', 'overloaded'],
    ['AiError: 3036: You have used up your daily free allocation of 10,000 neurons', 'quota_exhausted'],
    ['5007: No such model @cf/x or task', 'not_found'],
    ['something else went wrong', 'server'],
  ])('classifies a thrown "%s" as %s', async (message, kind) => {
    const { ai } = fakeAi(() => {
      throw new Error(message);
    });
    expect(
      await rejection(workersAiAdapter.generate(trustRequest, callOptions(noFetch, { ai }))),
    ).toMatchObject({
      kind,
      dispatch: 'sent',
    });
  });

  it('fails before sending when the worker has no AI binding', async () => {
    expect(await rejection(workersAiAdapter.generate(trustRequest, callOptions(noFetch)))).toMatchObject({
      kind: 'not_found',
      dispatch: 'not_sent',
    });
  });

  it('streams until [DONE], and a stream without it is incomplete', async () => {
    const whole = fakeAi(() => sseResponse(sseFrames(textSse)).body);
    const { parts } = await drain(
      workersAiAdapter.stream(trustRequest, callOptions(noFetch, { ai: whole.ai })),
    );
    expect(streamedText(parts)).toBe('Hello, World');
    expect(parts.at(-1)).toMatchObject({ type: 'finish', usage: { input_tokens: 23, output_tokens: 2 } });
    const cut = fakeAi(() => sseResponse(sseFrames(textSse).slice(0, -1)).body);
    const { error } = await drain(
      workersAiAdapter.stream(trustRequest, callOptions(noFetch, { ai: cut.ai })),
    );
    expect(error).toMatchObject({ kind: 'invalid_response', emitted_deltas: true });
  });
});
