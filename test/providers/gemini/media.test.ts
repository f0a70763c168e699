import { describe, expect, it } from 'vitest';
import type { MediaBlock } from '../../../src/model/message';
import type { ModelRequest } from '../../../src/model/model-request';
import { geminiAdapter } from '../../../src/providers/gemini/gemini-adapter';
import documented from '../../fixtures/providers/gemini/media-requests.json';
import usageMedia from '../../fixtures/providers/gemini/usage-media.json';
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
  pdfUrl,
  pngBase64,
  systemText,
  urlImage,
  urlPdf,
  wavAudio,
  wavBase64,
} from '../media-samples';

interface WireBody {
  systemInstruction?: { parts: { text: string }[] };
  contents: { role: string; parts: Record<string, unknown>[] }[];
}

function wireOf(request: ModelRequest): WireBody {
  return geminiAdapter.toWireBody?.(request, callOptions(fetch)) as WireBody;
}

function userTurn(...content: ModelRequest['messages'][number]['content']): ModelRequest {
  return { messages: [{ role: 'user', content }] };
}

const text = (value: string) => ({ type: 'text' as const, text: value });

/**
 * A REST example's part with its keys in lowerCamelCase: the guides write `file_data.file_uri`, the
 * API reference `fileData.fileUri`; proto3 JSON takes both, and Valve sends the reference's spelling.
 */
function camelKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, child]) => [
      key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase()),
      camelKeys(child),
    ]),
  );
}

describe('gemini adapter: media as inlineData and fileData parts', () => {
  // The documented parts (test/fixtures/providers/gemini/media-requests.json, sources in SOURCES.md)
  // are what the adapter sends for the same neutral content.
  it('sends the documented inlineData part for PDF bytes', () => {
    const pdf: MediaBlock = {
      type: 'file',
      source: { kind: 'base64', data: 'JVBERi0xLjQK' },
      mime_type: 'application/pdf',
    };
    // The example puts text and PDF in two user contents; Valve's one user message is one content.
    const documentedParts: unknown[] = documented['pdf-inline'].contents.flatMap(
      (content): unknown[] => content.parts,
    );
    expect(wireOf(userTurn(text('Summarize this document'), pdf)).contents).toEqual([
      { role: 'user', parts: documentedParts },
    ]);
  });

  it('sends the documented fileData part for a Files API URI', () => {
    const byUri: MediaBlock = {
      type: 'image',
      source: { kind: 'file_id', file_id: 'https://generativelanguage.googleapis.com/v1beta/files/abc-123' },
      mime_type: 'image/jpeg',
    };
    expect(wireOf(userTurn(byUri, text('Caption this image.'))).contents).toEqual(
      camelKeys(documented['image-file-uri'].contents.map((content) => ({ role: 'user', ...content }))),
    );
  });

  it('keeps the order of a rendered message, merges adjacent text, and keeps media out of systemInstruction', () => {
    const wire = wireOf(mediaRequest());
    expect(wire.systemInstruction).toEqual({ parts: [{ text: systemText }] });
    expect(wire.contents).toEqual([
      {
        role: 'user',
        parts: [
          { text: mediaRequestTexts[0] },
          { inlineData: { mimeType: 'image/png', data: pngBase64 } },
          { text: mediaRequestTexts[1] },
          { inlineData: { mimeType: 'application/pdf', data: pdfBase64 } },
          { text: mediaRequestTexts[2] },
        ],
      },
    ]);
  });

  it('sends https URLs and file ids as fileData, and MP3 as audio/mp3', () => {
    expect(wireOf(mediaRequest(urlImage, fileIdPdf)).contents[0]?.parts).toEqual([
      { text: mediaRequestTexts[0] },
      { fileData: { mimeType: 'image/png', fileUri: imageUrl } },
      { text: mediaRequestTexts[1] },
      { fileData: { mimeType: 'application/pdf', fileUri: 'file-pdf-1' } },
      { text: mediaRequestTexts[2] },
    ]);
    expect(wireOf(mediaRequest(fileIdImage, urlPdf)).contents[0]?.parts[3]).toEqual({
      fileData: { mimeType: 'application/pdf', fileUri: pdfUrl },
    });
    expect(wireOf(userTurn(wavAudio, mp3Audio)).contents[0]?.parts).toEqual([
      { inlineData: { mimeType: 'audio/wav', data: wavBase64 } },
      { inlineData: { mimeType: 'audio/mp3', data: wavBase64 } },
    ]);
  });

  it('sends a message without media exactly as before', () => {
    expect(wireOf(trustRequest)).toMatchObject({
      systemInstruction: { parts: [{ text: trustedText }] },
      contents: [{ role: 'user', parts: [{ text: untrustedText }] }],
    });
  });

  it('refuses, before sending, media in a system, assistant or tool message', async () => {
    for (const role of ['system', 'assistant', 'tool'] as const) {
      const { fetch, calls } = fakeFetch(() => jsonResponse(usageMedia));
      const error = await rejection(geminiAdapter.generate(misplacedMedia(role), callOptions(fetch)));
      expect(error).toMatchObject({ kind: 'invalid_request', dispatch: 'not_sent', provider: 'gemini' });
      expect(error.message).toMatch(new RegExp(`in user messages only, not in an? ${role} message\\.$`));
      expect(calls).toHaveLength(0);
    }
  });

  it('refuses a GIF, which Gemini does not list', async () => {
    const gif: MediaBlock = {
      type: 'image',
      source: { kind: 'base64', data: pngBase64 },
      mime_type: 'image/gif',
    };
    const { fetch, calls } = fakeFetch(() => jsonResponse(usageMedia));
    const error = await rejection(geminiAdapter.generate(userTurn(gif), callOptions(fetch)));
    expect(error).toMatchObject({ kind: 'invalid_request', dispatch: 'not_sent' });
    expect(error.message).toBe('gemini does not take an image (image/gif) from bytes.');
    expect(calls).toHaveLength(0);
  });

  it('keeps image, audio and document tokens in input tokens: promptTokenCount already counts them', async () => {
    const { fetch } = fakeFetch(() => jsonResponse(usageMedia));
    const response = await geminiAdapter.generate(mediaRequest(), callOptions(fetch));
    expect(response.usage).toEqual({
      input_tokens: 591,
      output_tokens: 14,
      cache_read_tokens: 0,
      reasoning_tokens: 0,
    });
  });
});
