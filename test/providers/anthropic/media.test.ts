import { describe, expect, it } from 'vitest';
import type { MediaBlock } from '../../../src/model/message';
import type { ModelRequest } from '../../../src/model/model-request';
import { anthropicAdapter } from '../../../src/providers/anthropic/anthropic-adapter';
import documented from '../../fixtures/providers/anthropic/media-requests.json';
import textJson from '../../fixtures/providers/anthropic/text.json';
import {
  callOptions,
  fakeFetch,
  jsonResponse,
  rejection,
  trustedText,
  trustRequest,
  untrustedText,
} from '../fake-fetch';
import {
  fileIdImage,
  fileIdPdf,
  imageUrl,
  mediaRequest,
  mediaRequestTexts,
  misplacedMedia,
  pdfBase64,
  pdfUrl,
  pngBase64,
  systemText,
  urlImage,
  urlPdf,
  wavAudio,
} from '../media-samples';

interface WireBody {
  system?: string;
  messages: { role: string; content: unknown }[];
}

function wireOf(request: ModelRequest): WireBody {
  return anthropicAdapter.toWireBody?.(request, callOptions(fetch)) as WireBody;
}

function userTurn(...content: ModelRequest['messages'][number]['content']): ModelRequest {
  return { messages: [{ role: 'user', content }] };
}

const text = (value: string) => ({ type: 'text' as const, text: value });

describe('anthropic adapter: media as image and document blocks', () => {
  // Each documented body (test/fixtures/providers/anthropic/media-requests.json, sources in
  // SOURCES.md) is what the adapter sends for the same neutral content.
  it('sends the documented image blocks for bytes and for a URL', () => {
    const bytes: MediaBlock = {
      type: 'image',
      source: { kind: 'base64', data: '/9j/4AAQSkZJRgABAQ==' },
      mime_type: 'image/jpeg',
    };
    const question = text('What is in the above image?');
    expect(wireOf(userTurn(bytes, question)).messages).toEqual(documented['image-base64'].messages);
    const url: MediaBlock = {
      type: 'image',
      source: {
        kind: 'url',
        url: 'https://upload.wikimedia.org/wikipedia/commons/a/a7/Camponotus_flavomarginatus_ant.jpg',
      },
      mime_type: 'image/jpeg',
    };
    expect(wireOf(userTurn(url, question)).messages).toEqual(documented['image-url'].messages);
  });

  it('sends the documented document blocks for a PDF by URL, bytes and file id', () => {
    const question = text('What are the key findings in this document?');
    const pdf = (source: MediaBlock['source']): MediaBlock => ({
      type: 'file',
      source,
      mime_type: 'application/pdf',
    });
    const url =
      'https://assets.anthropic.com/m/1cd9d098ac3e6467/original/Claude-3-Model-Card-October-Addendum.pdf';
    expect(wireOf(userTurn(pdf({ kind: 'url', url }), question)).messages).toEqual(
      documented['pdf-url'].messages,
    );
    expect(wireOf(userTurn(pdf({ kind: 'base64', data: 'JVBERi0xLjQK' }), question)).messages).toEqual(
      documented['pdf-base64'].messages,
    );
    const byId = pdf({ kind: 'file_id', file_id: 'file_011CNha8iCJcU1wXNR6q4V8w' });
    expect(wireOf(userTurn(byId, question)).messages).toEqual(documented['pdf-file'].messages);
  });

  it('keeps the order of a rendered message, merges adjacent text, and keeps media out of system', () => {
    const wire = wireOf(mediaRequest());
    expect(wire.system).toBe(systemText);
    expect(wire.messages).toEqual([
      {
        role: 'user',
        content: [
          text(mediaRequestTexts[0] ?? ''),
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: pngBase64 } },
          text(mediaRequestTexts[1] ?? ''),
          { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: pdfBase64 } },
          text(mediaRequestTexts[2] ?? ''),
        ],
      },
    ]);
  });

  it('sends URL and file-id sources of images and PDFs', () => {
    expect(wireOf(mediaRequest(urlImage, urlPdf)).messages[0]?.content).toEqual([
      text(mediaRequestTexts[0] ?? ''),
      { type: 'image', source: { type: 'url', url: imageUrl } },
      text(mediaRequestTexts[1] ?? ''),
      { type: 'document', source: { type: 'url', url: pdfUrl } },
      text(mediaRequestTexts[2] ?? ''),
    ]);
    expect(wireOf(mediaRequest(fileIdImage, fileIdPdf)).messages[0]?.content).toEqual([
      text(mediaRequestTexts[0] ?? ''),
      { type: 'image', source: { type: 'file', file_id: 'file-image-1' } },
      text(mediaRequestTexts[1] ?? ''),
      { type: 'document', source: { type: 'file', file_id: 'file-pdf-1' } },
      text(mediaRequestTexts[2] ?? ''),
    ]);
  });

  it('names the Files API beta only when a file-id source is sent', async () => {
    const { fetch, calls } = fakeFetch(() => jsonResponse(textJson));
    await anthropicAdapter.generate(mediaRequest(fileIdImage), callOptions(fetch));
    await anthropicAdapter.generate(mediaRequest(), callOptions(fetch));
    await anthropicAdapter.generate(trustRequest, callOptions(fetch));
    expect(calls[0]?.headers['anthropic-beta']).toBe('files-api-2025-04-14');
    expect(calls[1]?.headers).not.toHaveProperty('anthropic-beta');
    expect(calls[2]?.headers).not.toHaveProperty('anthropic-beta');
  });

  it('sends a message without media exactly as before', () => {
    expect(wireOf(trustRequest)).toMatchObject({
      system: trustedText,
      messages: [{ role: 'user', content: [{ type: 'text', text: untrustedText }] }],
    });
    expect(wireOf(userTurn(text('a'), text('b'))).messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'ab' }] },
    ]);
  });

  it('refuses, before sending, media in a system, assistant or tool message', async () => {
    for (const role of ['system', 'assistant', 'tool'] as const) {
      const { fetch, calls } = fakeFetch(() => jsonResponse(textJson));
      const error = await rejection(anthropicAdapter.generate(misplacedMedia(role), callOptions(fetch)));
      expect(error).toMatchObject({ kind: 'invalid_request', dispatch: 'not_sent', provider: 'anthropic' });
      expect(error.message).toMatch(new RegExp(`in user messages only, not in an? ${role} message\\.$`));
      expect(calls).toHaveLength(0);
    }
  });

  it('refuses audio, which the Messages API does not read', async () => {
    const { fetch, calls } = fakeFetch(() => jsonResponse(textJson));
    const error = await rejection(anthropicAdapter.generate(userTurn(wavAudio), callOptions(fetch)));
    expect(error).toMatchObject({ kind: 'invalid_request', dispatch: 'not_sent' });
    expect(error.message).toBe('anthropic does not take audio (audio/wav) from bytes.');
    expect(calls).toHaveLength(0);
  });
});
