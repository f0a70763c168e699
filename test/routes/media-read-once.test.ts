import { afterEach, describe, expect, it, vi } from 'vitest';
import * as measuring from '../../src/media/measure-media';
import * as reading from '../../src/media/read-media';
import { createKey, reason } from '../helpers/api';
import { base64Of, pdfOf, pngOf } from '../helpers/media-samples';

// A request's media are read once, at the start of the pipeline, and measured once, whichever way the
// answer is framed: every later stage (the body limit, mediaPolicy, planning, the repair) takes the
// description read then.

afterEach(() => vi.restoreAllMocks());

const body = {
  task: 'describe',
  instructions: 'Describe the attachments.',
  context: [
    {
      trust: 'untrusted',
      privacy: 'internal',
      media: [
        { type: 'image', mimeType: 'image/png', source: { kind: 'base64', data: base64Of(pngOf(64, 64)) } },
        { type: 'file', mimeType: 'application/pdf', source: { kind: 'base64', data: base64Of(pdfOf(2)) } },
      ],
    },
  ],
};

describe('media read once', () => {
  it.each([
    ['as one JSON body', {}],
    ['as events', { Accept: 'text/event-stream' }],
  ])('reads and measures a request’s media once when it is answered %s', async (_, headers) => {
    const read = vi.spyOn(reading, 'readMedia');
    const measure = vi.spyOn(measuring, 'measureMedia');
    const { key } = await createKey('media-read-once', ['reason']);
    const res = await reason(key, body, headers);
    expect(res.status, await res.clone().text()).toBe(200);
    await res.text();
    expect(read).toHaveBeenCalledTimes(1);
    expect(measure).toHaveBeenCalledTimes(1);
  });
});
