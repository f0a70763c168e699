import { describe, expect, it } from 'vitest';
import { reasonRequestSchema } from '../../../src/contracts/reason-request';
import { type ChatRequest, chatRequestSchema } from '../../../src/doors/openai/chat-request';
import { chatToReason } from '../../../src/doors/openai/chat-to-reason';
import { ApiError } from '../../../src/errors';

const map = (body: Record<string, unknown>) =>
  chatToReason(chatRequestSchema.parse(body) as ChatRequest).request;

function paramOfFailure(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const issues = (error.details?.issues as { path: string }[] | undefined) ?? [];
    return (error.details?.param as string | undefined) ?? issues[0]?.path;
  }
  return undefined;
}

const user = (content: unknown) => ({ role: 'user', content });

describe('Chat Completions → Reason request (openai.chat/1)', () => {
  it('asks for citations with valve.citations, keeping the asked output format', () => {
    const messages = [user('Cite the PDF.')];
    expect(map({ model: 'auto', messages, valve: { citations: true } }).output).toEqual({
      format: 'text',
      citations: true,
    });
    const json = { type: 'json_schema', json_schema: { name: 'a', schema: { type: 'object' } } };
    expect(
      map({ model: 'auto', messages, response_format: json, valve: { citations: true } }).output,
    ).toMatchObject({
      format: 'json',
      citations: true,
    });
    expect(map({ model: 'auto', messages, valve: { citations: false } }).output).toBeUndefined();
  });

  it('maps a minimal body to task openai.chat/1, empty instructions and one user turn', () => {
    expect(map({ model: 'auto', messages: [user('Hi')] })).toEqual({
      task: 'openai.chat/1',
      instructions: '',
      conversation: [{ role: 'user', content: 'Hi' }],
    });
  });

  it('joins system and developer messages, in order, into instructions with a blank line', () => {
    const request = map({
      model: 'auto',
      messages: [
        { role: 'system', content: 'Be brief.' },
        user('Hi'),
        { role: 'developer', content: [{ type: 'text', text: 'Use English.' }] },
      ],
    });
    expect(request.instructions).toBe('Be brief.\n\nUse English.');
    expect(request.conversation).toEqual([{ role: 'user', content: 'Hi' }]);
  });

  it('joins text parts with a newline', () => {
    const request = map({
      model: 'auto',
      messages: [
        user([
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ]),
      ],
    });
    expect(request.conversation).toEqual([{ role: 'user', content: 'a\nb' }]);
  });

  it.each(['video_url', 'refusal', 'input_text'])(
    'rejects a %s part in a user message, naming it',
    (type) => {
      const body = { model: 'auto', messages: [user('x'), user([{ type: 'text', text: 'a' }, { type }])] };
      expect(paramOfFailure(() => map(body))).toBe('/messages/1/content/1');
    },
  );

  it('leaves the instruction lint to the pipeline, keeping where each system message came from', () => {
    const body = chatRequestSchema.parse({
      model: 'auto',
      messages: [{ role: 'system', content: 'ok' }, user('x'), { role: 'developer', content: 'bad \u0007' }],
    }) as ChatRequest;
    expect(chatToReason(body).instructions).toEqual([
      { text: 'ok', param: ['messages', 0, 'content'] },
      { text: 'bad \u0007', param: ['messages', 2, 'content'] },
    ]);
  });

  it('maps assistant tool calls and tool results to tool turns, not text', () => {
    const request = map({
      model: 'auto',
      messages: [
        user('Weather in Paris?'),
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '18 °C' },
      ],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }],
    });
    expect(request.conversation).toEqual([
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }] },
      { role: 'tool', toolCallId: 'call_1', name: 'get_weather', content: '18 °C' },
    ]);
    expect(reasonRequestSchema.safeParse(request).success).toBe(true);
  });

  it('rejects tool call arguments that are not a JSON object, and a tool result answering no call', () => {
    const call = (args: string) => ({
      role: 'assistant',
      tool_calls: [{ id: 'c', type: 'function', function: { name: 't', arguments: args } }],
    });
    expect(paramOfFailure(() => map({ model: 'auto', messages: [user('x'), call('[1]')] }))).toBe(
      '/messages/1/tool_calls/0/function/arguments',
    );
    expect(paramOfFailure(() => map({ model: 'auto', messages: [user('x'), call('{')] }))).toBe(
      '/messages/1/tool_calls/0/function/arguments',
    );
    expect(
      paramOfFailure(() =>
        map({ model: 'auto', messages: [user('x'), { role: 'tool', tool_call_id: 'z', content: 'r' }] }),
      ),
    ).toBe('/messages/1/tool_call_id');
  });

  it('maps tools, tool_choice, parallel_tool_calls and sampling settings', () => {
    const request = map({
      model: 'auto',
      messages: [user('x')],
      tools: [
        {
          type: 'function',
          function: { name: 'lookup', description: 'Look up.', parameters: { type: 'object' } },
        },
      ],
      tool_choice: { type: 'function', function: { name: 'lookup' } },
      parallel_tool_calls: false,
      temperature: 0.2,
      top_p: 0.9,
      stop: 'END',
      seed: 7,
    });
    expect(request.tools).toEqual([
      { name: 'lookup', description: 'Look up.', inputSchema: { type: 'object' } },
    ]);
    expect(request.toolChoice).toEqual({ name: 'lookup' });
    expect(request.parallelToolCalls).toBe(false);
    expect(request.sampling).toEqual({ temperature: 0.2, topP: 0.9, stop: ['END'], seed: 7 });
  });

  it('gives a tool without parameters an empty object schema, and rejects a tool_choice naming no tool', () => {
    const base = {
      model: 'auto',
      messages: [user('x')],
      tools: [{ type: 'function', function: { name: 'a' } }],
    };
    expect(map(base).tools).toEqual([{ name: 'a', inputSchema: { type: 'object', properties: {} } }]);
    expect(
      paramOfFailure(() => map({ ...base, tool_choice: { type: 'function', function: { name: 'b' } } })),
    ).toBe('/tool_choice/function/name');
  });

  it('maps response_format json_schema to output with its schema, json_object to any object, text to nothing', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } } };
    const base = { model: 'auto', messages: [user('x')] };
    expect(
      map({
        ...base,
        response_format: { type: 'json_schema', json_schema: { name: 'a', schema, strict: true } },
      }).output,
    ).toEqual({
      format: 'json',
      schema,
    });
    expect(map({ ...base, response_format: { type: 'json_object' } }).output).toEqual({
      format: 'json',
      schema: { type: 'object' },
    });
    expect(map({ ...base, response_format: { type: 'text' } }).output).toBeUndefined();
  });

  it('takes max_completion_tokens over max_tokens as maxOutputTokens', () => {
    const base = { model: 'auto', messages: [user('x')] };
    expect(map({ ...base, max_tokens: 100 }).modelPolicy).toEqual({ maxOutputTokens: 100 });
    expect(map({ ...base, max_tokens: 100, max_completion_tokens: 50 }).modelPolicy).toEqual({
      maxOutputTokens: 50,
    });
  });

  it('maps model auto, valve/<prefer> and provider/model', () => {
    const base = { messages: [user('x')] };
    expect(map({ ...base, model: 'auto' }).modelPolicy).toBeUndefined();
    expect(map({ ...base, model: 'valve/speed' }).modelPolicy).toEqual({ prefer: 'speed' });
    expect(map({ ...base, model: 'sim/fast' }).modelPolicy).toEqual({
      pinned: { provider: 'sim', model: 'fast' },
      allowFallback: false,
    });
    expect(
      map({ ...base, model: 'sim/fast', valve: { modelPolicy: { allowFallback: true } } }).modelPolicy,
    ).toEqual({ pinned: { provider: 'sim', model: 'fast' }, allowFallback: true });
    expect(map({ ...base, model: 'openai/@cf/some-model' }).modelPolicy?.pinned).toEqual({
      provider: 'openai',
      model: '@cf/some-model',
    });
    expect(paramOfFailure(() => map({ ...base, model: 'gpt-4o' }))).toBe('model');
  });

  it('takes Valve-only fields from valve, and rejects a policy field the body already sets', () => {
    const context = [{ trust: 'untrusted', privacy: 'internal', content: 'doc' }];
    const request = map({
      model: 'valve/cost',
      messages: [user('x')],
      valve: {
        task: 'triage',
        context,
        rendering: { mode: 'json' },
        receiptId: '3f0e2a6c-5b1d-4c8e-9a7f-0123456789ab',
        receiptSalt: 'ZW5kLXRvLWVuZC1lbmQtdG8tZW5kLWVuZC10by1lbmQtZW5kLXRv',
        modelPolicy: { regions: ['eu'] },
      },
    });
    expect(request).toMatchObject({
      task: 'triage',
      context,
      rendering: { mode: 'json' },
      receiptId: '3f0e2a6c-5b1d-4c8e-9a7f-0123456789ab',
      modelPolicy: { prefer: 'cost', regions: ['eu'] },
    });
    expect(
      paramOfFailure(() =>
        map({ model: 'valve/cost', messages: [user('x')], valve: { modelPolicy: { prefer: 'speed' } } }),
      ),
    ).toBe('/valve/modelPolicy/prefer');
  });

  it('puts tool annotations from valve.toolAnnotations on the capability, and rejects one naming no tool', () => {
    const base = {
      model: 'auto',
      messages: [user('x')],
      tools: [{ type: 'function', function: { name: 'delete_file', parameters: { type: 'object' } } }],
    };
    expect(
      map({ ...base, valve: { toolAnnotations: { delete_file: { destructive: true } } } }).tools?.[0]
        ?.annotations,
    ).toEqual({
      destructive: true,
    });
    expect(
      paramOfFailure(() => map({ ...base, valve: { toolAnnotations: { other: { destructive: true } } } })),
    ).toBe('/valve/toolAnnotations/other');
  });

  it('is deterministic: the same body always gives the same request', () => {
    const body = {
      model: 'valve/quality',
      messages: [{ role: 'system', content: 's' }, user('u'), { role: 'assistant', content: 'a' }, user('v')],
      temperature: 0,
    };
    expect(JSON.stringify(map(structuredClone(body)))).toBe(JSON.stringify(map(structuredClone(body))));
  });

  it('rejects unknown fields in valve and in messages, and n > 1, by the OpenAI path', () => {
    const fail = (body: Record<string, unknown>) => chatRequestSchema.safeParse(body).error?.issues[0];
    expect(fail({ model: 'auto', messages: [user('x')], valve: { tsk: 'a' } })).toMatchObject({
      path: ['valve'],
      code: 'unrecognized_keys',
    });
    expect(fail({ model: 'auto', messages: [user('x')], n: 2 })).toMatchObject({ path: ['n'] });
    expect(fail({ model: 'auto', messages: [{ role: 'function', content: 'x', name: 'f' }] })?.path).toEqual([
      'messages',
      0,
      'role',
    ]);
  });
});
