import { describe, expect, it } from 'vitest';
import type { MediaBlock } from '../../../src/model/message';
import type { ModelRequest } from '../../../src/model/model-request';
import { openaiAdapter } from '../../../src/providers/openai/openai-adapter';
import documented from '../../fixtures/providers/openai/media-requests.json';
import usageMedia from '../../fixtures/providers/openai/usage-media.json';
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
  mp3Audio,
  pdfBase64,
  pdfFile,
  pngBase64,
  systemText,
  urlImage,
  urlPdf,
  wavAudio,
  wavBase64,
} from '../media-samples';

interface WireBody {
  messages: { role: string; content: unknown }[];
}

function wireOf(request: ModelRequest): WireBody {
  return openaiAdapter.toWireBody?.(request, callOptions(fetch)) as WireBody;
}

function userTurn(...content: ModelRequest['messages'][number]['content']): ModelRequest {
  return { messages: [{ role: 'user', content }] };
}

const text = (value: string) => ({ type: 'text' as const, text: value });

describe('openai adapter: media as Chat Completions content parts', () => {
  // Each documented body (test/fixtures/providers/openai/media-requests.json, sources in SOURCES.md)
  // is what the adapter sends for the same neutral content, message for message.
  it('sends the documented image_url part for an https URL and for bytes', () => {
    const url: MediaBlock = {
      type: 'image',
      source: { kind: 'url', url: documented['image-url'].messages[0]?.content[1]?.image_url?.url ?? '' },
      mime_type: 'image/jpeg',
    };
    expect(wireOf(userTurn(text('What’s in this image?'), url)).messages).toEqual(
      documented['image-url'].messages,
    );
    const bytes: MediaBlock = {
      type: 'image',
      source: { kind: 'base64', data: '/9j/4AAQSkZJRgABAQ==' },
      mime_type: 'image/jpeg',
    };
    expect(wireOf(userTurn(text('What is in this image?'), bytes)).messages).toEqual(
      documented['image-base64'].messages,
    );
  });

  it('sends the documented input_audio part', () => {
    const audio: MediaBlock = {
      type: 'audio',
      source: { kind: 'base64', data: 'UklGRiQAAABXQVZF' },
      mime_type: 'audio/wav',
    };
    expect(wireOf(userTurn(text('What is in this recording?'), audio)).messages).toEqual(
      documented['input-audio'].messages,
    );
  });

  it('sends the documented file part for a file id and for bytes with a filename', () => {
    const byId: MediaBlock = {
      type: 'file',
      source: { kind: 'file_id', file_id: 'file-6F2ksmvXxt4VdoqmHRw6kL' },
      mime_type: 'application/pdf',
    };
    const question = text('What is the first dragon in the book?');
    expect(wireOf(userTurn(byId, question)).messages).toEqual(documented['file-id'].messages);
    const byBytes: MediaBlock = {
      type: 'file',
      source: { kind: 'base64', data: 'JVBERi0xLjQK' },
      mime_type: 'application/pdf',
      filename: 'draconomicon.pdf',
    };
    expect(wireOf(userTurn(byBytes, question)).messages).toEqual(documented['file-data'].messages);
  });

  it('keeps the order of a rendered message, merges adjacent text, and leaves the system message a string', () => {
    const wire = wireOf(mediaRequest());
    expect(wire.messages).toEqual([
      { role: 'system', content: systemText },
      {
        role: 'user',
        content: [
          text(mediaRequestTexts[0] ?? ''),
          { type: 'image_url', image_url: { url: `data:image/png;base64,${pngBase64}` } },
          text(mediaRequestTexts[1] ?? ''),
          {
            type: 'file',
            file: { filename: 'report.pdf', file_data: `data:application/pdf;base64,${pdfBase64}` },
          },
          text(mediaRequestTexts[2] ?? ''),
        ],
      },
    ]);
  });

  it('sends a URL image as the URL and a PDF file id as file_id', () => {
    const content = wireOf(mediaRequest(urlImage, fileIdPdf)).messages[1]?.content;
    expect(content).toEqual([
      text(mediaRequestTexts[0] ?? ''),
      { type: 'image_url', image_url: { url: imageUrl } },
      text(mediaRequestTexts[1] ?? ''),
      { type: 'file', file: { file_id: 'file-pdf-1' } },
      text(mediaRequestTexts[2] ?? ''),
    ]);
  });

  it('names a PDF without a filename document.pdf, and sends wav and mp3 audio by format', () => {
    const unnamed: MediaBlock = { type: 'file', source: pdfFile.source, mime_type: 'application/pdf' };
    expect(wireOf(userTurn(unnamed)).messages[0]?.content).toEqual([
      {
        type: 'file',
        file: { filename: 'document.pdf', file_data: `data:application/pdf;base64,${pdfBase64}` },
      },
    ]);
    expect(wireOf(userTurn(wavAudio, mp3Audio)).messages[0]?.content).toEqual([
      { type: 'input_audio', input_audio: { data: wavBase64, format: 'wav' } },
      { type: 'input_audio', input_audio: { data: wavBase64, format: 'mp3' } },
    ]);
  });

  it('sends a message without media exactly as before: string content, text blocks joined', () => {
    expect(wireOf(trustRequest).messages).toEqual([
      { role: 'system', content: trustedText },
      { role: 'user', content: untrustedText },
    ]);
    expect(wireOf(userTurn(text('a'), text('b'), { type: 'json', value: { c: 1 } })).messages).toEqual([
      { role: 'user', content: 'ab{"c":1}' },
    ]);
  });

  it('refuses, before sending, media in a system, assistant or tool message', async () => {
    for (const role of ['system', 'assistant', 'tool'] as const) {
      const { fetch, calls } = fakeFetch(() => jsonResponse({}));
      const error = await rejection(openaiAdapter.generate(misplacedMedia(role), callOptions(fetch)));
      expect(error).toMatchObject({ kind: 'invalid_request', dispatch: 'not_sent', provider: 'openai' });
      expect(error.message).toMatch(new RegExp(`in user messages only, not in an? ${role} message\\.$`));
      expect(calls).toHaveLength(0);
      expect(() => wireOf(misplacedMedia(role))).toThrow();
    }
  });

  it('refuses what Chat Completions does not take: an image file id, a PDF URL', async () => {
    for (const request of [mediaRequest(fileIdImage), mediaRequest(undefined, urlPdf)]) {
      const { fetch, calls } = fakeFetch(() => jsonResponse({}));
      const error = await rejection(openaiAdapter.generate(request, callOptions(fetch)));
      expect(error).toMatchObject({ kind: 'invalid_request', dispatch: 'not_sent' });
      expect(error.message).toMatch(
        /^openai does not take (an image \(image\/png\) from a file id|a file \(application\/pdf\) from a URL)\.$/,
      );
      expect(calls).toHaveLength(0);
    }
  });

  it('keeps image and audio tokens in input tokens: prompt_tokens already counts them', async () => {
    const { fetch } = fakeFetch(() => jsonResponse(usageMedia));
    const response = await openaiAdapter.generate(userTurn(text('Listen.'), wavAudio), callOptions(fetch));
    expect(response.usage).toEqual({
      input_tokens: 1117,
      output_tokens: 46,
      cache_read_tokens: 0,
      reasoning_tokens: 0,
    });
  });
});
