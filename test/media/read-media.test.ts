import { describe, expect, it } from 'vitest';
import type { ReasonRequest } from '../../src/contracts/reason-request';
import { checkMediaPolicy } from '../../src/media/check-media-policy';
import { checkTextBytes } from '../../src/media/check-text-bytes';
import { measureMedia } from '../../src/media/measure-media';
import { noMedia, readMedia } from '../../src/media/read-media';
import { imageTokens, pdfPageTokens } from '../../src/model/media-tokens';
import { base64Of, pdfOf, pngOf } from '../helpers/media-samples';

// A request's media read once into the description every later stage takes: where each part is, what
// it needs of a model, what it takes of the body, and once measured, its tokens.

const png = base64Of(pngOf(100, 100));
const pdf = base64Of(pdfOf(2));
const request = {
  task: 't',
  instructions: 'Read them.',
  context: [
    {
      trust: 'trusted',
      privacy: 'internal',
      content: 'a',
      media: [{ type: 'image', mimeType: 'image/png', source: { kind: 'base64', data: png } }],
    },
    {
      trust: 'untrusted',
      privacy: 'internal',
      media: [
        { type: 'file', mimeType: 'application/pdf', source: { kind: 'base64', data: pdf } },
        { type: 'image', mimeType: 'image/png', source: { kind: 'url', url: 'https://example.test/a.png' } },
      ],
    },
  ],
  conversation: [
    {
      role: 'user',
      content: 'Look.',
      media: [{ type: 'image', mimeType: 'image/png', source: { kind: 'base64', data: png } }],
    },
    { role: 'assistant', content: 'Seen.' },
  ],
} as unknown as ReasonRequest;

describe('readMedia', () => {
  const media = readMedia(request);

  it('lists every part in order, with its place for the trace and for an error, and its item’s trust', () => {
    expect(media.parts.map(({ path, pointer, trust }) => ({ path, pointer, trust }))).toEqual([
      { path: 'context[0].media[0]', pointer: '/context/0/media/0', trust: 'trusted' },
      { path: 'context[1].media[0]', pointer: '/context/1/media/0', trust: 'untrusted' },
      { path: 'context[1].media[1]', pointer: '/context/1/media/1', trust: 'untrusted' },
      { path: 'conversation[0].media[0]', pointer: '/conversation/0/media/0', trust: undefined },
    ]);
  });

  it('counts the characters its sources take in the body, and each distinct way a part is sourced', () => {
    expect(media.sourceChars).toBe(png.length * 2 + pdf.length + 'https://example.test/a.png'.length);
    expect(media.sources).toEqual([
      { modality: 'image', kind: 'base64', mimeType: 'image/png' },
      { modality: 'pdf', kind: 'base64', mimeType: 'application/pdf' },
      { modality: 'image', kind: 'url', mimeType: 'image/png' },
    ]);
    expect(media.modalities).toEqual(['image', 'pdf']);
    expect([media.tokens, media.priced]).toEqual([0, []]);
  });

  it('reads a request without media as none', () => {
    expect(
      readMedia({ context: [{ trust: 'trusted', privacy: 'public', content: 'x' }] } as ReasonRequest),
    ).toEqual(noMedia);
  });

  it('is measured from the bytes once, keeping what was read', async () => {
    const measured = await measureMedia(media);
    expect(measured.parts).toBe(media.parts);
    expect(measured.priced.map((p) => [p.path, p.tokens])).toEqual([
      ['context[0].media[0]', imageTokens(100, 100)],
      ['context[1].media[0]', 2 * pdfPageTokens],
      ['context[1].media[1]', imageTokens()],
      ['conversation[0].media[0]', imageTokens(100, 100)],
    ]);
    expect(measured.tokens).toBe(2 * imageTokens(100, 100) + 2 * pdfPageTokens + imageTokens());
  });
});

describe('the checks on the media read', () => {
  const media = readMedia(request);

  it('refuses the first untrusted part by its pointer when allowUntrusted is false', () => {
    expect(() => checkMediaPolicy(media, { allowUntrusted: false, allowUrls: true })).toThrow(
      expect.objectContaining({ code: 'request.media_refused', details: { path: '/context/1/media/0' } }),
    );
  });

  it('refuses a URL source unless allowUrls, and a user turn’s part only when the turns are untrusted', () => {
    expect(() => checkMediaPolicy(media, {})).toThrow(
      expect.objectContaining({ details: { path: '/context/1/media/1' } }),
    );
    const turnOnly = readMedia({ conversation: request.conversation } as ReasonRequest);
    expect(() => checkMediaPolicy(turnOnly, { allowUntrusted: false })).not.toThrow();
    expect(() => checkMediaPolicy(turnOnly, { allowUntrusted: false }, true)).toThrow(
      expect.objectContaining({ details: { path: '/conversation/0/media/0' } }),
    );
  });

  it('holds the body without its media sources to the text limit', () => {
    const limit = 1000;
    expect(() => checkTextBytes(media, { bytes: media.sourceChars + limit, limit })).not.toThrow();
    expect(() => checkTextBytes(media, { bytes: media.sourceChars + limit + 1, limit })).toThrow(
      expect.objectContaining({ code: 'request.too_large', details: { maxBytes: limit } }),
    );
  });
});
