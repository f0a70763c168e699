import { describe, expect, it } from 'vitest';
import { createKey, postJson } from '../../helpers/api';

// What real OpenAI clients send every day: a message read back from a completion and sent again, tool
// messages with a name, explicit nulls, and the neutral values of knobs Valve does not implement. Each
// is accepted; a value Valve could not honour is a 400 whose `param` names it.

const post = (key: string, path: string, body: unknown) =>
  postJson(`/openai/v1/${path}`, body, { Authorization: `Bearer ${key}` });

interface ErrorJson {
  error: { message: string; type: string; param: string | null; code: string };
}

const user = { role: 'user', content: 'Say hello.' };

/** The params of the `openai.param_ignored` warnings in a body's `valve` extension, in order. */
function ignoredParams(json: unknown): string[] {
  const warnings = (json as { valve?: { warnings?: { code: string; message: string }[] } }).valve?.warnings;
  return (warnings ?? [])
    .filter((w) => w.code === 'openai.param_ignored')
    .map((w) => /^Valve did not apply ([\w.]+):/.exec(w.message)?.[1] ?? w.message);
}

describe('Chat Completions bodies real clients send', () => {
  it('takes back an assistant message as model_dump() writes it, every null included', async () => {
    const { key } = await createKey();
    const first = await post(key, 'chat/completions', { model: 'auto', messages: [user] });
    const message = ((await first.json()) as { choices: { message: Record<string, unknown> }[] }).choices[0]
      ?.message;
    const dumped = {
      refusal: null,
      annotations: [],
      audio: null,
      function_call: null,
      tool_calls: null,
      name: null,
      ...message,
    };
    const res = await post(key, 'chat/completions', {
      model: 'auto',
      messages: [{ role: 'system', content: 'Be brief.', name: null }, user, dumped, { ...user, name: null }],
    });
    expect(res.status).toBe(200);
  });

  it('takes a tool message with the tool’s name, as litellm’s tool loop sends it', async () => {
    const { key } = await createKey();
    const res = await post(key, 'chat/completions', {
      model: 'auto',
      messages: [
        user,
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'call_1', name: 'f', content: 'done' },
      ],
      tools: [
        { type: 'function', function: { name: 'f', description: null, parameters: { type: 'object' } } },
      ],
    });
    expect(res.status).toBe(200);
  });

  it('reads explicit nulls as absent and neutral values of unimplemented knobs as asking nothing', async () => {
    const { key } = await createKey();
    const res = await post(key, 'chat/completions', {
      model: 'auto',
      messages: [user],
      tools: null,
      tool_choice: null,
      response_format: null,
      user: null,
      parallel_tool_calls: null,
      frequency_penalty: 0,
      presence_penalty: 0,
      logprobs: false,
      top_logprobs: 0,
      logit_bias: {},
      store: false,
      modalities: ['text'],
      metadata: { team: 'a' },
      service_tier: 'auto',
      prompt_cache_key: 'k',
      safety_identifier: 'u-1',
      audio: null,
      prediction: null,
      reasoning_effort: 'low',
      verbosity: 'low',
    });
    expect(res.status).toBe(200);
    // The knobs that ask for something are accepted, and said to be ignored; the neutral ones are not.
    expect(ignoredParams(await res.json())).toEqual(['verbosity']);
  });

  // Every top-level field OpenAI's own Chat Completions API takes as null (openai-python 3.60's
  // CompletionCreateParams: the `Optional[...]` ones, and `stop`).
  it('reads null as absent for every field OpenAI’s API lets be null', async () => {
    const { key } = await createKey();
    const nullable = [
      'audio',
      'frequency_penalty',
      'logit_bias',
      'logprobs',
      'max_completion_tokens',
      'max_tokens',
      'metadata',
      'modalities',
      'moderation',
      'n',
      'prediction',
      'presence_penalty',
      'prompt_cache_key',
      'prompt_cache_retention',
      'reasoning_effort',
      'safety_identifier',
      'seed',
      'service_tier',
      'stop',
      'store',
      'stream',
      'stream_options',
      'temperature',
      'top_logprobs',
      'top_p',
      'verbosity',
    ];
    const body = { model: 'auto', messages: [user], ...Object.fromEntries(nullable.map((f) => [f, null])) };
    const res = await post(key, 'chat/completions', body);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(ignoredParams(await res.json())).toEqual([]);
  });

  it('says which knobs it did not apply, in valve.warnings, streamed or not', async () => {
    const { key } = await createKey();
    const body = { model: 'auto', messages: [user], reasoning_effort: 'high', service_tier: 'flex' };
    const res = await post(key, 'chat/completions', body);
    expect(ignoredParams(await res.json())).toEqual(['service_tier']);
    const streamed = await post(key, 'chat/completions', { ...body, stream: true });
    const frames = (await streamed.text()).split('\n\n').filter((f) => f.startsWith('data: {'));
    const finish = frames.map((f) => JSON.parse(f.slice(6)) as { valve?: unknown }).find((c) => c.valve);
    expect(ignoredParams(finish)).toEqual(['service_tier']);
    const plain = await post(key, 'chat/completions', { model: 'auto', messages: [user] });
    expect(ignoredParams(await plain.json())).toEqual([]);
  });

  it('accepts prompt caching hints, which change no answer, and says nothing of them', async () => {
    const { key } = await createKey();
    const res = await post(key, 'chat/completions', {
      model: 'auto',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi', prompt_cache_breakpoint: {} }] }],
      prompt_cache_retention: '24h',
      prompt_cache_options: { mode: 'implicit', ttl: '12h', prewarm: false, comparison_response_id: null },
      moderation: null,
    });
    expect(res.status).toBe(200);
    expect(ignoredParams(await res.json())).toEqual([]);
  });

  it('refuses a cache prewarm, which asks for no answer, naming it', async () => {
    const { key } = await createKey();
    const res = await post(key, 'chat/completions', {
      model: 'auto',
      messages: [user],
      prompt_cache_options: { prewarm: true },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as ErrorJson).error.param).toBe('prompt_cache_options.prewarm');
  });

  it.each([
    ['n', 2],
    ['logprobs', true],
    ['store', true],
    ['logit_bias', { '50256': -100 }],
    ['frequency_penalty', 0.5],
    ['modalities', ['text', 'audio']],
    ['audio', { voice: 'alloy', format: 'mp3' }],
    ['moderation', { model: 'omni-moderation-latest' }],
  ])('refuses %s = %j with a 400 naming it', async (field, value) => {
    const { key } = await createKey();
    const res = await post(key, 'chat/completions', { model: 'auto', messages: [user], [field]: value });
    expect(res.status).toBe(400);
    expect(((await res.json()) as ErrorJson).error.param).toBe(field);
  });
});

describe('Responses API bodies real clients send', () => {
  it('reads explicit nulls and neutral values as absent', async () => {
    const { key } = await createKey();
    const res = await post(key, 'responses', {
      model: 'auto',
      input: 'Say hello.',
      conversation: null,
      user: null,
      tools: null,
      tool_choice: null,
      include: [],
      background: false,
      truncation: 'disabled',
      store: false,
      reasoning: { effort: 'low' },
      text: { format: { type: 'text' }, verbosity: 'low' },
    });
    expect(res.status).toBe(200);
    expect(ignoredParams(await res.json())).toEqual(['text.verbosity']);
    const auto = await post(key, 'responses', { model: 'auto', input: 'Hi', truncation: 'auto' });
    expect(ignoredParams(await auto.json())).toEqual(['truncation']);
  });

  // Every top-level field OpenAI's own Responses API takes as null (openai-python 3.60's
  // ResponseCreateParams: the `Optional[...]` ones).
  it('reads null as absent for every field OpenAI’s API lets be null', async () => {
    const { key } = await createKey();
    const nullable = [
      'background',
      'context_management',
      'conversation',
      'include',
      'instructions',
      'max_output_tokens',
      'max_tool_calls',
      'metadata',
      'moderation',
      'parallel_tool_calls',
      'previous_response_id',
      'prompt',
      'prompt_cache_key',
      'prompt_cache_retention',
      'reasoning',
      'safety_identifier',
      'service_tier',
      'store',
      'stream',
      'stream_options',
      'temperature',
      'top_logprobs',
      'top_p',
      'truncation',
    ];
    const body = { model: 'auto', input: 'Hi', ...Object.fromEntries(nullable.map((f) => [f, null])) };
    const res = await post(key, 'responses', body);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(ignoredParams(await res.json())).toEqual([]);
  });

  it('accepts prompt caching hints and stream options, and no context management', async () => {
    const { key } = await createKey();
    const res = await post(key, 'responses', {
      model: 'auto',
      input: 'Say hello.',
      stream: true,
      stream_options: { include_obfuscation: false },
      prompt_cache_retention: 'in_memory',
      prompt_cache_options: { mode: 'explicit', ttl: '30m' },
      context_management: null,
      moderation: null,
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('response.completed');
    const empty = await post(key, 'responses', { model: 'auto', input: 'Hi', context_management: [] });
    expect(empty.status).toBe(200);
  });

  it('accepts every reasoning option openai-python 3.60 sends, applies the effort and says it applied neither context nor mode', async () => {
    const { key } = await createKey();
    const res = await post(key, 'responses', {
      model: 'auto',
      input: 'Hi',
      reasoning: { effort: 'max', context: 'all_turns', mode: 'pro' },
    });
    expect(res.status).toBe(200);
    expect(ignoredParams(await res.json())).toEqual(['reasoning.context', 'reasoning.mode']);
  });

  it('refuses include with items, background: true, context management and moderation, naming them', async () => {
    const { key } = await createKey();
    for (const [field, value] of [
      ['include', ['message.output_text.logprobs']],
      ['background', true],
      ['context_management', [{ type: 'compaction', compact_threshold: 1000 }]],
      ['moderation', { model: 'omni-moderation-latest' }],
    ] as const) {
      const res = await post(key, 'responses', { model: 'auto', input: 'Hi', [field]: value });
      expect(res.status).toBe(400);
      expect(((await res.json()) as ErrorJson).error.param).toBe(field);
    }
  });
});
