import { describe, expect, it } from 'vitest';
import type { ReasonRequest } from '../../src/contracts/reason-request';
import type { Message } from '../../src/model/message';
import type { ModelResponse } from '../../src/model/model-response';
import { anthropicAdapter } from '../../src/providers/anthropic/anthropic-adapter';
import { geminiAdapter } from '../../src/providers/gemini/gemini-adapter';
import { reasoningItemsOf } from '../../src/reason/reasoning-items';
import { replayableReasoning, unreplayedWarnings } from '../../src/reason/replayable-reasoning';
import { StreamAssembler } from '../../src/reason/stream-assembler';
import type { StreamEvent } from '../../src/streaming/stream-events';
import redacted from '../fixtures/providers/anthropic/redacted-thinking.json';
import thinkingSse from '../fixtures/providers/anthropic/thinking.sse.json';
import geminiTextSse from '../fixtures/providers/gemini/text.sse.json';
import {
  callOptions,
  fakeFetch,
  jsonResponse,
  sseFrames,
  sseResponse,
  trustRequest,
} from '../providers/fake-fetch';

// The reasoning an answer carries, from each provider's recorded payloads to the Reason answer's items,
// and back: only to the model that made it, in that provider's own field.

const request: ReasonRequest = { task: 't', instructions: 'i' };

async function assembled(adapter: typeof anthropicAdapter, frames: string[]) {
  const events: StreamEvent[] = [];
  const assembler = new StreamAssembler({
    request,
    tainted: false,
    holdText: false,
    emit: (e) => events.push(e),
  });
  const { fetch } = fakeFetch(() => sseResponse(frames));
  let response: ModelResponse | undefined;
  for await (const part of adapter.stream(trustRequest, callOptions(fetch))) {
    if (part.type === 'finish') response = assembler.finish(part);
    else assembler.add(part.delta);
  }
  if (!response) throw new Error('no finish');
  return { events, response };
}

const origin = { provider: 'anthropic', model: 'claude-sonnet-5' };

describe('reasoning from the provider', () => {
  it('assembles Claude’s streamed thinking into one block closed by its signature, and streams the text', async () => {
    const { events, response } = await assembled(anthropicAdapter, sseFrames(thinkingSse));
    const deltas = thinkingSse.events.flatMap((e) => {
      const delta = (e.data as { delta?: { type?: string; thinking?: string; signature?: string } }).delta;
      return delta?.type === 'thinking_delta' ? [delta.thinking ?? ''] : [];
    });
    const signature = thinkingSse.events
      .map((e) => (e.data as { delta?: { signature?: string } }).delta?.signature)
      .find((s) => s !== undefined);
    expect(reasoningItemsOf(response.message.content, origin)).toEqual([
      { ...origin, text: deltas.join(''), signature },
    ]);
    expect(events.filter((e) => e.type === 'response.reasoning.delta').map((e) => e.delta)).toEqual(deltas);
    // The reasoning is not the answer: the text deltas are the answer's alone.
    const text = events.flatMap((e) => (e.type === 'response.output_text.delta' ? [e.delta] : [])).join('');
    expect(text).not.toContain('Euclidean algorithm to find');
  });

  it('keeps a redacted_thinking block whole and apart from the signed thinking before it', async () => {
    const { fetch } = fakeFetch(() => jsonResponse(redacted));
    const response = await anthropicAdapter.generate(trustRequest, callOptions(fetch));
    expect(reasoningItemsOf(response.message.content, origin)).toEqual([
      { ...origin, text: redacted.content[0]?.thinking, signature: redacted.content[0]?.signature },
      { ...origin, redactedData: redacted.content[1]?.data },
    ]);
  });

  it('keeps a streamed redacted_thinking block, which comes whole in content_block_start', async () => {
    const frames = [
      {
        event: 'message_start',
        data: { type: 'message_start', message: { id: 'msg_1', model: 'm', usage: {} } },
      },
      {
        event: 'content_block_start',
        data: {
          type: 'content_block_start',
          index: 0,
          content_block: { type: 'redacted_thinking', data: 'EmwKAhgB' },
        },
      },
      { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
      {
        event: 'content_block_start',
        data: { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
      },
      {
        event: 'content_block_delta',
        data: { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Done.' } },
      },
      {
        event: 'message_delta',
        data: { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: {} },
      },
      { event: 'message_stop', data: { type: 'message_stop' } },
    ];
    const { response } = await assembled(anthropicAdapter, sseFrames({ events: frames }));
    expect(reasoningItemsOf(response.message.content, origin)).toEqual([
      { ...origin, redactedData: 'EmwKAhgB' },
    ]);
  });

  it('keeps the signature Gemini streams on its answer, as a summary-less item', async () => {
    const { response } = await assembled(geminiAdapter, sseFrames(geminiTextSse));
    const items = reasoningItemsOf(response.message.content, { provider: 'gemini', model: 'g' });
    expect(items.map((item) => item.signature)).toContain('EqsFCqgFAb4+9vvtAF5n87lB4OGDOoTRMOqp35jW65XsYXh6');
  });
});

describe('reasoning back to the provider', () => {
  const claude = { provider: 'anthropic', model: 'claude-sonnet-4-6' };
  const turn: Message = {
    role: 'assistant',
    content: [
      { type: 'reasoning', text: 'thinking', signature: 'SIG', origin: claude },
      { type: 'reasoning', redacted: 'ENC', origin: claude },
      { type: 'reasoning', text: 'a summary', summary: true, origin: claude },
      {
        type: 'reasoning',
        text: 'Gemini thought',
        signature: 'GSIG',
        origin: { provider: 'gemini', model: 'g' },
      },
      { type: 'text', text: 'Calling.' },
      { type: 'tool_call', id: 'toolu_1', name: 'lookup', args: {} },
    ],
  };
  const messages: Message[] = [{ role: 'user', content: [{ type: 'text', text: 'Go.' }] }, turn];

  it('keeps only the blocks the called model made', () => {
    const kept = replayableReasoning(messages, claude);
    expect(kept[1]?.content.filter((b) => b.type === 'reasoning')).toHaveLength(3);
    expect(
      replayableReasoning(messages, { provider: 'anthropic', model: 'claude-opus-4-6' })[1]?.content,
    ).toEqual([
      { type: 'text', text: 'Calling.' },
      { type: 'tool_call', id: 'toolu_1', name: 'lookup', args: {} },
    ]);
  });

  it('sends Claude its signed thinking and redacted blocks first, never a summary or unsigned text', () => {
    const body = anthropicAdapter.toWireBody?.(
      { messages: replayableReasoning(messages, claude) },
      callOptions(fetch, { model: claude.model }),
    ) as { messages: { role: string; content: unknown[] }[] };
    expect(body.messages[1]?.content).toEqual([
      { type: 'thinking', thinking: 'thinking', signature: 'SIG' },
      { type: 'redacted_thinking', data: 'ENC' },
      { type: 'text', text: 'Calling.' },
      { type: 'tool_use', id: 'toolu_1', name: 'lookup', input: {} },
    ]);
  });

  it('gives Gemini 2.5 an unsigned call as it is, and Gemini 3 the documented skip value on its first call only', () => {
    const unsigned: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'Go.' }] },
      {
        role: 'assistant',
        content: [
          { type: 'tool_call', id: 'a', name: 'lookup', args: {} },
          { type: 'tool_call', id: 'b', name: 'lookup', args: {} },
        ],
      },
    ];
    const partsFor = (model: string) => {
      const body = geminiAdapter.toWireBody?.({ messages: unsigned }, callOptions(fetch, { model })) as {
        contents: { parts: Record<string, unknown>[] }[];
      };
      return body.contents[1]?.parts.map((p) => p.thoughtSignature);
    };
    expect(partsFor('gemini-2.5-flash')).toEqual([undefined, undefined]);
    expect(partsFor('gemini-3-pro-preview')).toEqual(['skip_thought_signature_validator', undefined]);
  });

  it('says which models’ reasoning was not sent', () => {
    const conversation: ReasonRequest['conversation'] = [
      { role: 'user', content: 'Go.' },
      {
        role: 'assistant',
        content: 'Done.',
        reasoning: [
          { ...claude, text: 't', signature: 's' },
          { provider: 'gemini', model: 'g', signature: 'x' },
        ],
      },
    ];
    expect(unreplayedWarnings({ conversation }, claude)).toEqual([
      {
        code: 'reasoning.not_replayed',
        message:
          '1 reasoning item(s) of the conversation came from gemini/g and were not sent to anthropic/claude-sonnet-4-6: a model is sent only its own reasoning.',
      },
    ]);
    expect(unreplayedWarnings({ conversation: conversation.slice(0, 1) }, claude)).toEqual([]);
  });
});
