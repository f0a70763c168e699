import { describe, expect, it } from 'vitest';
import { chooseFraming } from '../../src/routes/choose-framing';
import { createKey, reason } from '../helpers/api';

describe('chooseFraming', () => {
  it.each([
    [undefined, 'json'],
    ['', 'json'],
    ['*/*', 'json'],
    ['application/*', 'json'],
    ['application/json', 'json'],
    ['text/event-stream', 'sse'],
    ['Text/Event-Stream; charset=utf-8', 'sse'],
    ['application/x-ndjson', 'ndjson'],
    ['text/event-stream, application/json', 'sse'],
    ['text/event-stream;q=0, application/json', 'json'],
    ['text/event-stream; q=0.0, */*', 'json'],
    ['text/event-stream;q=0.5, application/json', 'json'],
    ['application/json;q=0.2, application/x-ndjson;q=0.9', 'ndjson'],
    ['application/json;q=0.9, text/event-stream;q=0.8', 'json'],
    ['text/*', undefined],
    ['text/html', undefined],
    ['application/json;q=0', undefined],
    ['*/*;q=0', undefined],
    ['*/*, application/json;q=0', undefined],
  ])('Accept %j answers %s', (accept, expected) => {
    expect(chooseFraming(accept)).toBe(expected);
  });
});

describe('POST /v1/reason', () => {
  it('answers JSON to `Accept: text/event-stream;q=0, application/json`', async () => {
    const { key } = await createKey();
    const res = await reason(
      key,
      { task: 'summarize', instructions: 'Summarize.' },
      { Accept: 'text/event-stream;q=0, application/json' },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toMatch(/^application\/json/);
    expect(await res.json()).toHaveProperty('receiptId');
  });
});
