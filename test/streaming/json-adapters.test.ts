import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Catalog, CatalogModel } from '../../src/policy/catalog';
import { createKey } from '../helpers/api';
import { simModel } from '../helpers/catalog-fixtures';
import { deltaText, readStream, terminalOf } from '../helpers/read-stream';
import { streamWithCatalog } from '../helpers/stream-call';

// output.format json through every HTTP adapter, the way the catalog's `capabilities.json` says:
// OpenAI `json_schema` (native) or a forced `json_output` function (tool), Anthropic a forced tool,
// Gemini `responseSchema`. The JSON answer and the stream give the same validated value.

const value = { severity: 'high', summary: 'Printer out of toner' };
const text = JSON.stringify(value);
const halves = [text.slice(0, 20), text.slice(20)];
const schema = {
  type: 'object',
  properties: { severity: { enum: ['low', 'high'] }, summary: { type: 'string' } },
  required: ['severity', 'summary'],
};
const body = { task: 'classify', instructions: 'Classify.', output: { format: 'json', schema } };
const usage = { prompt_tokens: 50, completion_tokens: 12 };
const sse = (events: { event?: string; data: unknown }[]) =>
  events
    .map(
      (e) =>
        `${e.event ? `event: ${e.event}\n` : ''}data: ${typeof e.data === 'string' ? e.data : JSON.stringify(e.data)}\n\n`,
    )
    .join('');
const oaChunk = (delta: unknown, finish: string | null = null) => ({
  data: { id: 'c', model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] },
});
const oaTail = (finish: string) => [
  oaChunk({}, finish),
  { data: { id: 'c', choices: [], usage } },
  { data: '[DONE]' },
];
const oaCall = (args: string, first: boolean) => ({
  tool_calls: [
    {
      index: 0,
      ...(first && { id: 'call_j' }),
      function: { ...(first && { name: 'json_output' }), arguments: args },
    },
  ],
});
const an = (type: string, data: Record<string, unknown>) => ({ event: type, data: { type, ...data } });
const gem = (parts: unknown[], finish?: string) => ({
  data: {
    candidates: [{ content: { role: 'model', parts }, ...(finish && { finishReason: finish }) }],
    usageMetadata: { promptTokenCount: 50, candidatesTokenCount: 12 },
  },
});

interface Case {
  kind: 'openai' | 'anthropic' | 'gemini';
  json: CatalogModel['capabilities']['json'];
  keyEnv: string;
  wire: (sent: Record<string, unknown>) => void;
  answer: unknown;
  stream: string;
}

const cases: Record<string, Case> = {
  'openai native': {
    kind: 'openai',
    json: 'native',
    keyEnv: 'OPENAI_API_KEY',
    wire: (sent) =>
      expect(sent.response_format).toMatchObject({ type: 'json_schema', json_schema: { schema } }),
    answer: { model: 'm', choices: [{ message: { content: text }, finish_reason: 'stop' }], usage },
    stream: sse([...halves.map((content) => oaChunk({ content })), ...oaTail('stop')]),
  },
  'openai tool': {
    kind: 'openai',
    json: 'tool',
    keyEnv: 'OPENAI_API_KEY',
    wire: (sent) => {
      expect(sent.response_format).toBeUndefined();
      expect(sent.tool_choice).toEqual({ type: 'function', function: { name: 'json_output' } });
    },
    answer: {
      model: 'm',
      choices: [
        {
          message: {
            content: null,
            tool_calls: [
              { id: 'call_j', type: 'function', function: { name: 'json_output', arguments: text } },
            ],
          },
          finish_reason: 'tool_calls',
        },
      ],
      usage,
    },
    stream: sse([
      oaChunk(oaCall('', true)),
      ...halves.map((h) => oaChunk(oaCall(h, false))),
      ...oaTail('tool_calls'),
    ]),
  },
  'anthropic tool': {
    kind: 'anthropic',
    json: 'tool',
    keyEnv: 'ANTHROPIC_API_KEY',
    wire: (sent) => expect(sent.tool_choice).toEqual({ type: 'tool', name: 'json_output' }),
    answer: {
      model: 'm',
      content: [{ type: 'tool_use', id: 't', name: 'json_output', input: value }],
      stop_reason: 'tool_use',
      usage: { input_tokens: 50, output_tokens: 12 },
    },
    stream: sse([
      an('message_start', {
        message: { id: 'msg', model: 'm', usage: { input_tokens: 50, output_tokens: 1 } },
      }),
      an('content_block_start', {
        index: 0,
        content_block: { type: 'tool_use', id: 't', name: 'json_output', input: {} },
      }),
      ...halves.map((h) =>
        an('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: h } }),
      ),
      an('content_block_stop', { index: 0 }),
      an('message_delta', { delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 12 } }),
      an('message_stop', {}),
    ]),
  },
  'gemini native': {
    kind: 'gemini',
    json: 'native',
    keyEnv: 'GEMINI_API_KEY',
    wire: (sent) => expect(sent.generationConfig).toMatchObject({ responseMimeType: 'application/json' }),
    answer: gem([{ text }], 'STOP').data,
    stream: sse([gem([{ text: halves[0] }]), gem([{ text: halves[1] }], 'STOP')]),
  },
};

afterEach(() => vi.restoreAllMocks());

describe('JSON output through every HTTP adapter', () => {
  for (const [name, c] of Object.entries(cases)) {
    it(`${name}: the wire asks for it, and JSON and stream give the same validated value`, async () => {
      const { key } = await createKey(`json-${name.replace(' ', '-')}`);
      const sent: Record<string, unknown>[] = [];
      vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
        const wire = JSON.parse(String(init?.body)) as Record<string, unknown>;
        sent.push(wire);
        return wire.stream === true || String(input).includes('streamGenerateContent')
          ? new Response(c.stream, { headers: { 'content-type': 'text/event-stream' } })
          : Response.json(c.answer);
      });
      const catalog: Catalog = {
        providers: [{ id: c.kind, kind: c.kind, apiKeyEnv: c.keyEnv }],
        models: [
          simModel(`${c.kind}-json`, {
            provider: c.kind,
            simulate: undefined,
            capabilities: { tools: true, json: c.json, reasoning: false, base64Data: false },
          }),
        ],
      };
      const env = { [c.keyEnv]: 'k' };
      const json = await streamWithCatalog(catalog, key, body, 'application/json', env);
      expect(json.res.status).toBe(200);
      const answer = (await json.res.json()) as { output: unknown; finishReason: string };
      expect(answer.output).toEqual({ format: 'json', value });
      expect(answer.finishReason).toBe('stop');
      const events = await readStream(
        (await streamWithCatalog(catalog, key, body, 'text/event-stream', env)).res,
      );
      const streamed = terminalOf(events).response as { output: unknown; finishReason: string };
      expect(streamed.output).toEqual(answer.output);
      expect(streamed.finishReason).toBe('stop');
      expect(JSON.parse(deltaText(events))).toEqual(value);
      expect(events.some((e) => e.type.startsWith('response.tool_call'))).toBe(false);
      for (const wire of sent) c.wire(wire);
    });
  }
});
