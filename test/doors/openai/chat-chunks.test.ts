import { describe, expect, it } from 'vitest';
import type { ReasonResponse } from '../../../src/contracts/reason-response';
import { chatChunks } from '../../../src/doors/openai/chat-chunks';
import { responsesEvents } from '../../../src/doors/openai/responses-events';
import { responsesRequestSchema } from '../../../src/doors/openai/responses-request';
import type { StreamEvent } from '../../../src/streaming/stream-events';

// The encoders on their own, fed Valve's events: the cases a simulator cannot easily produce.

const receiptId = '5e0e2a6c-5b1d-4c8e-9a7f-0123456789ab';
const model = { provider: 'sim', model: 's', region: 'us' };

function answer(overrides: Partial<ReasonResponse> = {}): ReasonResponse {
  return {
    receiptId,
    task: 'openai.chat/1',
    output: { format: 'text', text: 'Hello' },
    toolCalls: [],
    finishReason: 'stop',
    model,
    usage: { inputTokens: 3, outputTokens: 1, reasoningTokens: 0, cacheReadTokens: 0 },
    costUsd: 0.001,
    latencyMs: 5,
    decision: { prefer: 'quality', plan: [], excluded: [], attempts: [] },
    warnings: [],
    receipt: { jws: 'a.b.c', proof: 'p' },
    ...overrides,
  };
}

async function* play(events: StreamEvent[]) {
  for (const event of events) yield event;
}

async function collect(frames: AsyncGenerator<string>): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for await (const frame of frames) {
    for (const block of frame.split('\n\n')) {
      const data = block
        .split('\n')
        .find((line) => line.startsWith('data: '))
        ?.slice(6);
      if (data && data !== '[DONE]') out.push(JSON.parse(data) as Record<string, unknown>);
    }
  }
  return out;
}

const options = { includeUsage: false, allowTaintedDestructive: false, createdSec: 1, requestId: 'r' };
type Choice = { delta: Record<string, unknown>; finish_reason: string | null };
const choiceOf = (chunk: Record<string, unknown> | undefined) =>
  (chunk?.choices as Choice[] | undefined)?.[0];

describe('chatChunks', () => {
  it('finishes a stream the caller’s budget cut with finish_reason length', async () => {
    const chunks = await collect(
      chatChunks(
        play([
          { type: 'response.created', receiptId, model },
          { type: 'response.output_text.delta', delta: 'Hel' },
          {
            type: 'response.cancelled',
            reason: 'budget',
            response: answer({ output: { format: 'text', text: 'Hel' }, finishReason: 'length' }),
          },
        ]),
        { ...options, tools: [] },
      ),
    );
    expect(choiceOf(chunks.at(-1))?.finish_reason).toBe('length');
  });

  it('holds back a tainted destructive call in a stream and says so as content', async () => {
    const call = { id: 'call_1', name: 'wipe', arguments: {}, tainted: true };
    const tools = [{ name: 'wipe', inputSchema: {}, annotations: { destructive: true } }];
    const response = answer({
      output: { format: 'text', text: '' },
      toolCalls: [call],
      finishReason: 'tool_calls',
    });
    const events: StreamEvent[] = [
      { type: 'response.created', receiptId, model },
      { type: 'response.completed', response },
    ];
    const chunks = await collect(chatChunks(play(events), { ...options, tools }));
    expect(chunks.some((c) => choiceOf(c)?.delta.tool_calls !== undefined)).toBe(false);
    expect(String(choiceOf(chunks[1])?.delta.content)).toMatch(/^Valve held back 1 call/);
    expect(choiceOf(chunks.at(-1))?.finish_reason).toBe('stop');
    const warnings = (chunks.at(-1)?.valve as ReasonResponse | undefined)?.warnings ?? [];
    expect(warnings.map((w) => w.code)).toEqual(['openai.tool_call_held']);
    const allowed = await collect(
      chatChunks(play(events), { ...options, tools, allowTaintedDestructive: true }),
    );
    expect(choiceOf(allowed.at(-1))?.finish_reason).toBe('tool_calls');
  });

  it('throws a failure that comes before any content, so the route answers it as an HTTP error', async () => {
    const events: StreamEvent[] = [
      {
        type: 'response.error',
        error: {
          code: 'model.auth',
          message: 'bad key',
          category: 'model',
          retryable: false,
          details: null,
          requestId: 'r',
        },
        emittedDeltas: false,
        partialUsage: { inputTokens: 0, outputTokens: 0 },
      },
    ];
    await expect(collect(chatChunks(play(events), { ...options, tools: [] }))).rejects.toMatchObject({
      code: 'model.auth',
    });
  });
});

describe('responsesEvents', () => {
  it('ends a cut response with response.incomplete, its reason max_output_tokens', async () => {
    const request = responsesRequestSchema.parse({ model: 'auto', input: 'x' });
    const events = await collect(
      responsesEvents(
        play([
          { type: 'response.created', receiptId, model },
          { type: 'response.output_text.delta', delta: 'Hel' },
          {
            type: 'response.cancelled',
            reason: 'deadline',
            response: answer({ output: { format: 'text', text: 'Hel' } }),
          },
        ]),
        { ...options, request, tools: [] },
      ),
    );
    const last = events.at(-1) as { type: string; response: { status: string; incomplete_details: unknown } };
    expect(last.type).toBe('response.incomplete');
    expect(last.response).toMatchObject({
      status: 'incomplete',
      incomplete_details: { reason: 'max_output_tokens' },
    });
  });
});
