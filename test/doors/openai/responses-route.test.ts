import { describe, expect, it } from 'vitest';
import { reasonResponseSchema } from '../../../src/contracts/reason-response';
import { responsesRequestSchema } from '../../../src/doors/openai/responses-request';
import { responsesToReason } from '../../../src/doors/openai/responses-to-reason';
import { ApiError } from '../../../src/errors';
import { createKey, postJson } from '../../helpers/api';
import { catalogOf, simModel } from '../../helpers/catalog-fixtures';
import { doorCall, framesOf } from './door-calls';

const responses = (key: string, body: unknown) =>
  postJson('/openai/v1/responses', body, { Authorization: `Bearer ${key}` });

const map = (body: Record<string, unknown>) => responsesToReason(responsesRequestSchema.parse(body)).request;

function paramOfFailure(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return (error.details?.issues as { path: string }[] | undefined)?.[0]?.path;
  }
  return undefined;
}

interface ResponseJson {
  id: string;
  object: string;
  status: string;
  output: {
    type: string;
    content?: { type: string; text: string }[];
    name?: string;
    call_id?: string;
    arguments?: string;
  }[];
  usage: Record<string, unknown>;
  valve: unknown;
  error?: { param: string | null; message?: string };
}

describe('Responses API → Reason request (openai.responses/1)', () => {
  it('maps instructions, string input and message items, with system items joining the instructions', () => {
    expect(map({ model: 'auto', instructions: 'Be brief.', input: 'Hi' })).toEqual({
      task: 'openai.responses/1',
      instructions: 'Be brief.',
      conversation: [{ role: 'user', content: 'Hi' }],
    });
    const request = map({
      model: 'valve/cost',
      input: [
        { role: 'developer', content: 'Use English.' },
        {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: 'a' },
            { type: 'input_text', text: 'b' },
          ],
        },
        { role: 'assistant', content: [{ type: 'output_text', text: 'c' }] },
      ],
      max_output_tokens: 64,
    });
    expect(request).toMatchObject({
      instructions: 'Use English.',
      conversation: [
        { role: 'user', content: 'a\nb' },
        { role: 'assistant', content: 'c' },
      ],
      modelPolicy: { prefer: 'cost', maxOutputTokens: 64 },
    });
  });

  it('maps function_call and function_call_output items to tool turns', () => {
    const request = map({
      model: 'auto',
      input: [
        { role: 'user', content: 'Weather?' },
        { type: 'function_call', call_id: 'c1', name: 'w', arguments: '{"city":"Oslo"}' },
        { type: 'function_call', call_id: 'c2', name: 'w', arguments: '{"city":"Rome"}' },
        { type: 'function_call_output', call_id: 'c1', output: 'cold' },
      ],
    });
    expect(request.conversation?.slice(1)).toEqual([
      {
        role: 'assistant',
        toolCalls: [
          { id: 'c1', name: 'w', arguments: { city: 'Oslo' } },
          { id: 'c2', name: 'w', arguments: { city: 'Rome' } },
        ],
      },
      { role: 'tool', toolCallId: 'c1', name: 'w', content: 'cold' },
    ]);
  });

  it('rejects parts it cannot map and unknown items by their path', () => {
    expect(
      paramOfFailure(() =>
        map({ model: 'auto', input: [{ role: 'user', content: [{ type: 'input_image', image_url: 'x' }] }] }),
      ),
    ).toBe('/input/0/content/0/image_url');
    expect(
      paramOfFailure(() =>
        map({ model: 'auto', input: [{ role: 'user', content: [{ type: 'computer_screenshot' }] }] }),
      ),
    ).toBe('/input/0/content/0');
    // A reasoning item is read only when Valve gave it: OpenAI's own has nothing Valve can send on.
    expect(paramOfFailure(() => map({ model: 'auto', input: [{ type: 'reasoning', summary: [] }] }))).toBe(
      '/input/0/encrypted_content',
    );
    expect(paramOfFailure(() => map({ model: 'auto', input: [{ type: 'computer_call', id: 'c' }] }))).toBe(
      '/input/0/type',
    );
  });

  it.each([
    ['store', { store: true }],
    ['previous_response_id', { previous_response_id: 'resp_1' }],
    ['conversation', { conversation: 'conv_1' }],
  ])('is stateless: %s is a 400 naming it', (param, extra) => {
    expect(paramOfFailure(() => map({ model: 'auto', input: 'x', ...extra }))).toBe(`/${param}`);
  });
});

describe('POST /openai/v1/responses', () => {
  it('answers a response object with a message item, usage and the signed Reason response', async () => {
    const { key } = await createKey();
    const res = await responses(key, { model: 'auto', input: 'Say hello.' });
    expect(res.status).toBe(200);
    const json = (await res.json()) as ResponseJson;
    const valve = reasonResponseSchema.parse(json.valve);
    expect(json.id).toBe(`resp_${valve.receiptId}`);
    expect(res.headers.get('x-valve-receipt-id')).toBe(valve.receiptId);
    expect(json).toMatchObject({ object: 'response', status: 'completed' });
    expect(json.output).toEqual([
      {
        type: 'message',
        id: `msg_${valve.receiptId}`,
        status: 'completed',
        role: 'assistant',
        content: [
          {
            type: 'output_text',
            text: (valve.output as { text: string }).text,
            annotations: [],
            logprobs: [],
          },
        ],
      },
    ]);
    expect(json.usage).toMatchObject({
      input_tokens: valve.usage.inputTokens,
      output_tokens: valve.usage.outputTokens,
    });
    expect(valve.task).toBe('openai.responses/1');
  });

  it('answers store: true with a 400 in OpenAI’s shape', async () => {
    const { key } = await createKey();
    const res = await responses(key, { model: 'auto', input: 'x', store: true });
    expect(res.status).toBe(400);
    expect(((await res.json()) as ResponseJson).error?.param).toBe('store');
  });

  it('names the instructions or input item that fails the pipeline’s instruction lint', async () => {
    const { key } = await createKey();
    const res = await responses(key, { model: 'auto', instructions: 'Be <|im_start|> brief.', input: 'x' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as ResponseJson).error).toMatchObject({
      param: 'instructions',
      message: "Invalid 'instructions': instructions contain a chat-template token at index 3.",
    });
    const item = await responses(key, {
      model: 'auto',
      input: [
        { role: 'user', content: 'x' },
        { role: 'developer', content: 'y \u200b' },
      ],
    });
    expect(item.status).toBe(400);
    expect(((await item.json()) as ResponseJson).error?.param).toBe('input[1].content');
  });

  it('runs function_call_output items, and answers an unanswered function_call with a 400 naming input', async () => {
    const { key } = await createKey();
    const tools = [{ type: 'function', name: 'w', parameters: { type: 'object' } }];
    const call = { type: 'function_call', call_id: 'c1', name: 'w', arguments: '{}' };
    const ran = await responses(key, {
      model: 'auto',
      input: [
        { role: 'user', content: 'Weather?' },
        call,
        { type: 'function_call_output', call_id: 'c1', output: 'sunny' },
      ],
      tools,
    });
    expect(ran.status).toBe(200);
    expect(((await ran.json()) as ResponseJson).status).toBe('completed');
    // The developer item becomes instructions, so the call is Reason turn 1 but input[2].
    const res = await responses(key, {
      model: 'auto',
      input: [
        { role: 'developer', content: 'Be brief.' },
        { role: 'user', content: 'Weather?' },
        call,
        { role: 'user', content: 'Never mind.' },
      ],
      tools,
    });
    expect(res.status).toBe(400);
    const error = ((await res.json()) as ResponseJson).error;
    expect(error?.param).toBe('input[2]');
    expect(error?.message).toMatch(/must follow input\[2\]/);
  });

  it('streams events with increasing sequence numbers, from response.created to response.completed', async () => {
    const { key } = await createKey('resp-stream');
    const { res } = await doorCall(catalogOf([simModel('s')]), key, '/responses', {
      model: 'auto',
      input: 'Hi',
      stream: true,
    });
    const frames = await framesOf(res);
    const types = frames.map((f) => f.event);
    expect(frames.map((f) => f.json?.type)).toEqual(types);
    expect(types.slice(0, 4)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
    ]);
    expect(types.slice(-4)).toEqual([
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(frames.map((f) => f.json?.sequence_number)).toEqual(frames.map((_, i) => i));
    const deltas = frames
      .filter((f) => f.event === 'response.output_text.delta')
      .map((f) => f.json?.delta)
      .join('');
    const completed = frames.at(-1)?.json?.response as ResponseJson;
    const valve = reasonResponseSchema.parse(completed.valve);
    expect(deltas).toBe((valve.output as { text: string }).text);
  });

  it('streams a function call as one item with its arguments whole', async () => {
    const { key } = await createKey('resp-tool');
    const { res } = await doorCall(catalogOf([simModel('s')]), key, '/responses', {
      model: 'auto',
      input: 'Call lookup.',
      stream: true,
      tools: [
        {
          type: 'function',
          name: 'lookup',
          parameters: { type: 'object', properties: { q: { type: 'string' } } },
        },
      ],
    });
    const frames = await framesOf(res);
    const done = frames.find((f) => f.event === 'response.function_call_arguments.done')?.json;
    const item = frames.find((f) => f.event === 'response.output_item.done')?.json
      ?.item as ResponseJson['output'][number];
    const valve = reasonResponseSchema.parse(
      (frames.at(-1)?.json?.response as ResponseJson | undefined)?.valve,
    );
    expect(item).toMatchObject({ type: 'function_call', name: 'lookup', call_id: valve.toolCalls[0]?.id });
    expect(JSON.parse(String(done?.arguments))).toEqual(valve.toolCalls[0]?.arguments);
  });

  it('ends a stream cut after content with response.failed and an error event', async () => {
    const { key } = await createKey('resp-cut');
    const catalog = catalogOf([simModel('cut', { simulate: { failAfterChunks: 3 } })]);
    const { res } = await doorCall(catalog, key, '/responses', { model: 'auto', input: 'Hi', stream: true });
    const frames = await framesOf(res);
    expect(frames.slice(-2).map((f) => f.event)).toEqual(['response.failed', 'error']);
    expect(frames.some((f) => f.event === 'response.completed')).toBe(false);
    expect((frames.at(-1)?.json?.error as { code: string } | undefined)?.code).toBe('model.network');
  });
});
