import { describe, expect, it } from 'vitest';
import type { ReasonRequest } from '../../src/contracts/reason-request';
import type { ModelAdapter, WorkersAiBinding } from '../../src/model/model-adapter';
import type { MessageDelta, ModelResponse } from '../../src/model/model-response';
import { anthropicAdapter } from '../../src/providers/anthropic/anthropic-adapter';
import { geminiAdapter } from '../../src/providers/gemini/gemini-adapter';
import { openaiAdapter } from '../../src/providers/openai/openai-adapter';
import { workersAiAdapter } from '../../src/providers/workers-ai/workers-ai-adapter';
import { buildOutput } from '../../src/reason/build-output';
import { StreamAssembler } from '../../src/reason/stream-assembler';
import type { StreamEvent } from '../../src/streaming/stream-events';
import anthropicText from '../fixtures/providers/anthropic/text.sse.json';
import geminiText from '../fixtures/providers/gemini/text.sse.json';
import openaiText from '../fixtures/providers/openai/text.sse.json';
import workersAiText from '../fixtures/providers/workers-ai/text.sse.json';
import { workersAiText as workersAiPair } from '../fixtures/streams/scenarios';
import { checkStreamOrder } from '../helpers/check-stream-order';
import {
  callOptions,
  fakeFetch,
  type SseFixture,
  sseFrames,
  sseResponse,
  trustRequest,
} from '../providers/fake-fetch';

const untaintedPrompt = { nonce: '0'.repeat(32), canary: '0'.repeat(16), tainted: false };

// The adapter-level half of the stream tests: every adapter's recorded SSE fixture, and the Workers AI
// pair (its binding is not reachable through the route in tests), through the assembler.

const request: ReasonRequest = { task: 't', instructions: 'i' };

async function assemble(adapter: ModelAdapter, options: ReturnType<typeof callOptions>) {
  const events: StreamEvent[] = [];
  const assembler = new StreamAssembler({
    request,
    tainted: false,
    holdText: false,
    emit: (e) => events.push(e),
  });
  let response: ModelResponse | undefined;
  for await (const part of adapter.stream(trustRequest, options)) {
    if (part.type === 'finish') response = assembler.finish(part);
    else assembler.add(part.delta);
  }
  if (!response) throw new Error('no finish');
  return { events, response };
}

function aiStreaming(fixture: SseFixture, json?: unknown): WorkersAiBinding {
  return {
    async run(_model, inputs) {
      return inputs.stream ? sseResponse(sseFrames(fixture)).body : json;
    },
  };
}

describe('recorded fixture streams through the assembler', () => {
  const recorded: [string, ModelAdapter, SseFixture][] = [
    ['openai', openaiAdapter, openaiText],
    ['anthropic', anthropicAdapter, anthropicText],
    ['gemini', geminiAdapter, geminiText],
    ['workers-ai', workersAiAdapter, workersAiText],
  ];
  for (const [name, adapter, fixture] of recorded) {
    it(`${name}: ordered text deltas that make the assembled text`, async () => {
      const { fetch } = fakeFetch(() => sseResponse(sseFrames(fixture)));
      const { events, response } = await assemble(adapter, callOptions(fetch, { ai: aiStreaming(fixture) }));
      const terminal = { type: 'response.completed', response: {} };
      const plain = events.map((e): { type: string; [key: string]: unknown } => ({ ...e }));
      expect(checkStreamOrder([...plain, terminal])).toEqual([]);
      const text = events.map((e) => (e.type === 'response.output_text.delta' ? e.delta : '')).join('');
      expect(text.length).toBeGreaterThan(0);
      expect(buildOutput(request, response, untaintedPrompt).output).toEqual({ format: 'text', text });
      expect(response.usage.output_tokens).toBeGreaterThan(0);
    });
  }

  it('workers-ai: the assembled stream equals the JSON answer for the same fixture', async () => {
    const ai = aiStreaming({ events: workersAiPair.sse }, workersAiPair.json);
    const noFetch = (() => Promise.reject(new Error('binding only'))) as typeof fetch;
    const { response } = await assemble(workersAiAdapter, callOptions(noFetch, { ai }));
    const whole = await workersAiAdapter.generate(trustRequest, callOptions(noFetch, { ai }));
    expect(buildOutput(request, response, untaintedPrompt)).toEqual(
      buildOutput(request, whole, untaintedPrompt),
    );
    expect(response.usage).toEqual(whole.usage);
  });
});

describe('citations through the assembler', () => {
  const cited: ReasonRequest = {
    task: 't',
    instructions: 'i',
    context: [
      { trust: 'untrusted', privacy: 'internal', content: 'no PDF' },
      { label: 'report', trust: 'untrusted', privacy: 'internal', content: 'a PDF' },
    ],
  };
  const delta = (d: MessageDelta['delta']): MessageDelta => ({ message_id: 'm', index: 0, delta: d });
  const run = (holdText: boolean) => {
    const events: StreamEvent[] = [];
    const assembler = new StreamAssembler({
      request: cited,
      tainted: false,
      documents: [1],
      holdText,
      emit: (e) => events.push(e),
    });
    assembler.add(delta({ type: 'text', text: 'The total is 42' }));
    assembler.add(
      delta({
        type: 'annotations',
        annotations: [{ kind: 'file_citation', start: 13, end: 99, text: 'Total: 42', document_index: 0 }],
      }),
    );
    assembler.add(delta({ type: 'text', text: '.' }));
    const response = assembler.finish({
      type: 'finish',
      finish_reason: 'stop',
      usage: { input_tokens: 1, output_tokens: 1 },
    });
    return { events, response };
  };

  it('sends citations as an annotations event naming the context item, offsets kept to the text sent', () => {
    const { events, response } = run(false);
    const expected = {
      kind: 'file_citation',
      start: 13,
      end: 15,
      text: 'Total: 42',
      ref: 'report',
      contextItem: 1,
    };
    expect(events.filter((e) => e.type === 'response.output_text.annotations')).toEqual([
      { type: 'response.output_text.annotations', annotations: [expected] },
    ]);
    // The assembled answer carries what was sent, so the Reason answer matches the stream.
    const output = buildOutput(cited, response, { ...untaintedPrompt, documents: [1] }).output;
    expect(output).toEqual({ format: 'text', text: 'The total is 42.', annotations: [expected] });
  });

  it('sends and keeps no citation while the text is held (JSON output)', () => {
    const { events, response } = run(true);
    expect(events.some((e) => e.type === 'response.output_text.annotations')).toBe(false);
    expect(response.message.content).toEqual([{ type: 'text', text: 'The total is 42.' }]);
  });
});
