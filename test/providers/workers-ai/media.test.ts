import { describe, expect, it } from 'vitest';
import type { MediaBlock } from '../../../src/model/message';
import type { WorkersAiBinding } from '../../../src/model/model-adapter';
import type { ModelRequest } from '../../../src/model/model-request';
import { workersAiAdapter } from '../../../src/providers/workers-ai/workers-ai-adapter';
import documented from '../../fixtures/providers/workers-ai/media-inputs.json';
import textJson from '../../fixtures/providers/workers-ai/text.json';
import { callOptions, rejection, trustedText, trustRequest, untrustedText } from '../fake-fetch';
import {
  fileIdImage,
  mediaRequest,
  misplacedMedia,
  pdfFile,
  pngBase64,
  pngImage,
  systemText,
  urlImage,
  wavAudio,
} from '../media-samples';

const vision = '@cf/meta/llama-4-scout-17b-16e-instruct';
const noFetch = (() => Promise.reject(new Error('the binding, not fetch'))) as typeof fetch;

function fakeAi() {
  const calls: { model: string; inputs: Record<string, unknown> }[] = [];
  const ai: WorkersAiBinding = {
    async run(model, inputs) {
      calls.push({ model, inputs });
      return textJson;
    },
  };
  return { ai, calls };
}

function inputsOf(request: ModelRequest): { messages: { role: string; content: unknown }[] } {
  return workersAiAdapter.toWireBody?.(request, callOptions(noFetch, { model: vision })) as {
    messages: { role: string; content: unknown }[];
  };
}

function userTurn(...content: ModelRequest['messages'][number]['content']): ModelRequest {
  return { messages: [{ role: 'user', content }] };
}

const text = (value: string) => ({ type: 'text' as const, text: value });

describe('workers-ai adapter: images for vision models', () => {
  it('sends the documented messages input: text and image_url parts, the url a data URI', async () => {
    const jpeg: MediaBlock = {
      type: 'image',
      source: { kind: 'base64', data: '/9j/4AAQSkZJRgABAQ==' },
      mime_type: 'image/jpeg',
    };
    const { ai, calls } = fakeAi();
    await workersAiAdapter.generate(
      userTurn(text('What is in this image?'), jpeg),
      callOptions(noFetch, { ai, model: vision }),
    );
    expect(calls[0]?.inputs.messages).toEqual(documented.messages);
  });

  it('keeps the order of a rendered message, merges adjacent text, and leaves the system message a string', () => {
    const request = mediaRequest(pngImage, pngImage);
    expect(inputsOf(request).messages).toEqual([
      { role: 'system', content: systemText },
      {
        role: 'user',
        content: [
          text('<data-1 id="c1">\n'),
          { type: 'image_url', image_url: { url: `data:image/png;base64,${pngBase64}` } },
          text('\n</data-1>\n\n<data-1 id="c2">\n'),
          { type: 'image_url', image_url: { url: `data:image/png;base64,${pngBase64}` } },
          text('\n</data-1>\n\nWhat do these show?'),
        ],
      },
    ]);
  });

  it('sends a message without media exactly as before', () => {
    expect(inputsOf(trustRequest).messages).toEqual([
      { role: 'system', content: trustedText },
      { role: 'user', content: untrustedText },
    ]);
  });

  it('refuses, without running the model, what it cannot carry: a URL or file id, a PDF, audio, misplaced media', async () => {
    const refused: [ModelRequest, string][] = [
      [userTurn(urlImage), 'workers-ai does not take an image (image/png) from a URL.'],
      [userTurn(fileIdImage), 'workers-ai does not take an image (image/png) from a file id.'],
      [userTurn(pdfFile), 'workers-ai does not take a file (application/pdf) from bytes.'],
      [userTurn(wavAudio), 'workers-ai does not take audio (audio/wav) from bytes.'],
      [
        misplacedMedia('assistant'),
        'Valve sends images, audio and files in user messages only, not in an assistant message.',
      ],
      [
        misplacedMedia('system'),
        'Valve sends images, audio and files in user messages only, not in a system message.',
      ],
      [
        misplacedMedia('tool'),
        'Valve sends images, audio and files in user messages only, not in a tool message.',
      ],
    ];
    for (const [request, message] of refused) {
      const { ai, calls } = fakeAi();
      const error = await rejection(
        workersAiAdapter.generate(request, callOptions(noFetch, { ai, model: vision })),
      );
      expect(error).toEqual({
        kind: 'invalid_request',
        message,
        provider: 'workers-ai',
        model: vision,
        dispatch: 'not_sent',
        emitted_deltas: false,
      });
      expect(calls).toHaveLength(0);
    }
  });
});
