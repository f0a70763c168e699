import { describe, expect, it } from 'vitest';
import { checkStreamOrder } from '../helpers/check-stream-order';

const started = (call: string, index = 0) => ({
  type: 'response.tool_call.started',
  index,
  item_id: `item_${index}`,
  call_id: call,
  name: 'lookup',
});
const delta = (call: string, text: string, index = 0) => ({
  type: 'response.tool_call.delta',
  index,
  item_id: `item_${index}`,
  call_id: call,
  arguments_delta: text,
});
const completed = (call: string, args: string, index = 0) => ({
  type: 'response.tool_call.completed',
  index,
  item_id: `item_${index}`,
  call_id: call,
  name: 'lookup',
  arguments: args,
});
const done = { type: 'response.completed', response: {} };

describe('the stream order checker', () => {
  it('accepts interleaved calls that each start once, concatenate and complete', () => {
    const events = [
      started('a'),
      started('b', 1),
      delta('a', '{"x"'),
      delta('b', '{}', 1),
      delta('a', ':1}'),
      completed('b', '{}', 1),
      completed('a', '{"x":1}'),
      done,
    ];
    expect(checkStreamOrder(events)).toEqual([]);
  });

  it.each([
    ['a delta before started', [delta('a', '{}'), done]],
    ['started twice', [started('a'), started('a'), completed('a', ''), done]],
    [
      'completed arguments that differ from the deltas',
      [started('a'), delta('a', '{"x":1}'), completed('a', '{}'), done],
    ],
    ['an event after completed', [started('a'), completed('a', ''), delta('a', 'x'), done]],
    ['a call never completed', [started('a'), done]],
    ['no terminal event', [started('a'), completed('a', '')]],
    ['two terminal events', [done, done]],
    ['a terminal event that is not last', [done, { type: 'response.output_text.delta', delta: 'x' }]],
    ['a missing field', [{ ...started('a'), name: undefined }, completed('a', ''), done]],
    ['an unexpected field', [{ ...started('a'), extra: 1 }, completed('a', ''), done]],
    [
      'an error without code',
      [
        started('a'),
        {
          type: 'response.tool_call.error',
          index: 0,
          item_id: 'item_0',
          call_id: 'a',
          error: { type: 'invalid', message: 'bad' },
        },
        done,
      ],
    ],
  ])('rejects %s', (_, events) => {
    const cleaned = JSON.parse(JSON.stringify(events));
    expect(checkStreamOrder(cleaned).length).toBeGreaterThan(0);
  });
});
