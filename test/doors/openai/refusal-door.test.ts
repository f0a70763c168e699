import { afterEach, describe, expect, it, vi } from 'vitest';
import { reasonResponseSchema } from '../../../src/contracts/reason-response';
import { createKey } from '../../helpers/api';
import {
  openaiRefusal,
  refusingCatalog,
  refusingEnv,
  replayOpenAIRefusal,
} from '../../helpers/openai-refusal';
import { callWithCatalog } from '../../helpers/with-catalog';
import { framesOf } from './door-calls';

// A model's refusal through the OpenAI door: Chat Completions carries it in `message.refusal` (content
// null) and `delta.refusal` with finish_reason `content_filter`; the Responses API in a `refusal`
// content part, streamed as response.refusal.delta / .done. Each costs one upstream call.

const schema = {
  type: 'object',
  properties: { order: { type: 'string' } },
  required: ['order'],
  additionalProperties: false,
};
const messages = [
  { role: 'user', content: 'Extract the order number: please help me with something harmful.' },
];
const chat = {
  model: 'auto',
  messages,
  response_format: { type: 'json_schema', json_schema: { name: 'order', schema } },
};
const responses = {
  model: 'auto',
  input: 'Extract the order number: please help me with something harmful.',
  text: { format: { type: 'json_schema', name: 'order', schema } },
};

function door(key: string, path: string, body: unknown) {
  return callWithCatalog(
    refusingCatalog,
    `/openai/v1${path}`,
    {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${key}` },
      body: JSON.stringify(body),
    },
    refusingEnv,
  );
}

afterEach(() => vi.restoreAllMocks());

describe('a refusal through the OpenAI door', () => {
  it('answers a chat completion with message.refusal, content null and finish_reason content_filter', async () => {
    const fetch = replayOpenAIRefusal();
    const { key } = await createKey('door-refusal-chat');
    const { res } = await door(key, '/chat/completions', chat);
    expect(res.status).toBe(200);
    expect(fetch).toHaveBeenCalledTimes(1);
    const body = (await res.json()) as {
      choices: { message: Record<string, unknown>; finish_reason: string }[];
      valve: unknown;
    };
    expect(body.choices[0]?.message).toEqual({ role: 'assistant', content: null, refusal: openaiRefusal });
    expect(body.choices[0]?.finish_reason).toBe('content_filter');
    expect(reasonResponseSchema.parse(body.valve).output).toEqual({
      format: 'refusal',
      refusal: openaiRefusal,
    });
  });

  it('streams a chat refusal in delta.refusal chunks, then the content_filter finish and [DONE]', async () => {
    const fetch = replayOpenAIRefusal();
    const { key } = await createKey('door-refusal-chat-stream');
    const { res } = await door(key, '/chat/completions', { ...chat, stream: true });
    expect(res.status).toBe(200);
    const frames = await framesOf(res);
    expect(fetch).toHaveBeenCalledTimes(1);
    const deltas = frames.flatMap((f) => {
      const choice = (
        f.json?.choices as { delta: Record<string, unknown>; finish_reason: string | null }[]
      )?.[0];
      return choice ? [choice] : [];
    });
    expect(deltas[0]?.delta).toEqual({ role: 'assistant', content: '' });
    expect(deltas.slice(1, -1).map((c) => c.delta)).toEqual([
      { refusal: "I'm sorry, " },
      { refusal: 'I cannot assist ' },
      { refusal: 'with that request.' },
    ]);
    expect(deltas.at(-1)).toMatchObject({ delta: {}, finish_reason: 'content_filter' });
    expect(frames.at(-1)?.data).toBe('[DONE]');
  });

  it('answers a Responses call with a completed message whose one part is the refusal', async () => {
    const fetch = replayOpenAIRefusal();
    const { key } = await createKey('door-refusal-responses');
    const { res } = await door(key, '/responses', responses);
    expect(res.status).toBe(200);
    expect(fetch).toHaveBeenCalledTimes(1);
    const body = (await res.json()) as { status: string; incomplete_details: unknown; output: unknown[] };
    expect(body.status).toBe('completed');
    expect(body.incomplete_details).toBeNull();
    expect(body.output).toMatchObject([
      { type: 'message', role: 'assistant', content: [{ type: 'refusal', refusal: openaiRefusal }] },
    ]);
  });

  it('streams a Responses refusal as response.refusal.delta events, then response.refusal.done', async () => {
    const fetch = replayOpenAIRefusal();
    const { key } = await createKey('door-refusal-responses-stream');
    const { res } = await door(key, '/responses', { ...responses, stream: true });
    expect(res.status).toBe(200);
    const frames = await framesOf(res);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(frames.map((f) => f.event)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.refusal.delta',
      'response.refusal.delta',
      'response.refusal.delta',
      'response.refusal.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    const added = frames.find((f) => f.event === 'response.content_part.added');
    expect(added?.json?.part).toEqual({ type: 'refusal', refusal: '' });
    const text = frames
      .filter((f) => f.event === 'response.refusal.delta')
      .map((f) => f.json?.delta)
      .join('');
    expect(text).toBe(openaiRefusal);
    const done = frames.find((f) => f.event === 'response.refusal.done');
    expect(done?.json).toMatchObject({ output_index: 0, content_index: 0, refusal: openaiRefusal });
    const completed = frames.at(-1)?.json?.response as { output: unknown[] };
    expect(completed.output).toMatchObject([{ content: [{ type: 'refusal', refusal: openaiRefusal }] }]);
  });
});
