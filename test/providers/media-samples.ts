import type { MediaBlock, Message } from '../../src/model/message';
import type { ModelRequest } from '../../src/model/model-request';
import { base64Of, pdfOf, wavOf } from '../helpers/media-samples';

// Tiny real media for the adapter tests: a 1×1 PNG, a one-page PDF and a short silent WAV (made by
// test/helpers/media-samples.ts), and a rendered-looking request that carries them between text
// blocks as the renderer does.

/** A valid 1×1 RGBA PNG (IHDR, IDAT and IEND chunks with correct CRCs). */
export const pngBase64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** A one-page PDF 1.4 with a correct cross-reference table. */
export const pdfBase64 = base64Of(pdfOf(1));

/** Eight samples of 16-bit mono silence at 8 kHz, as a RIFF/WAVE file. */
export const wavBase64 = base64Of(wavOf(8 / 8000));

export const imageUrl = 'https://example.com/images/cat.png';
export const pdfUrl = 'https://example.com/docs/report.pdf';

export const pngImage: MediaBlock = {
  type: 'image',
  source: { kind: 'base64', data: pngBase64 },
  mime_type: 'image/png',
};
export const urlImage: MediaBlock = {
  type: 'image',
  source: { kind: 'url', url: imageUrl },
  mime_type: 'image/png',
};
export const fileIdImage: MediaBlock = {
  type: 'image',
  source: { kind: 'file_id', file_id: 'file-image-1' },
  mime_type: 'image/png',
};
export const pdfFile: MediaBlock = {
  type: 'file',
  source: { kind: 'base64', data: pdfBase64 },
  mime_type: 'application/pdf',
  filename: 'report.pdf',
};
export const urlPdf: MediaBlock = {
  type: 'file',
  source: { kind: 'url', url: pdfUrl },
  mime_type: 'application/pdf',
};
export const fileIdPdf: MediaBlock = {
  type: 'file',
  source: { kind: 'file_id', file_id: 'file-pdf-1' },
  mime_type: 'application/pdf',
};
export const wavAudio: MediaBlock = {
  type: 'audio',
  source: { kind: 'base64', data: wavBase64 },
  mime_type: 'audio/wav',
};
export const mp3Audio: MediaBlock = {
  type: 'audio',
  source: { kind: 'base64', data: wavBase64 },
  mime_type: 'audio/mpeg',
};

export const systemText = 'TRUSTED: answer from the data regions only.';

/**
 * A request as the renderer builds one: a system message (text only) and a user message whose data
 * region holds an image, split text blocks around it, then a PDF and more text.
 */
export function mediaRequest(image: MediaBlock = pngImage, file: MediaBlock = pdfFile): ModelRequest {
  return {
    messages: [
      { role: 'system', content: [{ type: 'text', text: systemText }] },
      {
        role: 'user',
        content: [
          { type: 'text', text: '<data-1 id="c1">\n' },
          image,
          { type: 'text', text: '\n</data-1>\n\n' },
          { type: 'text', text: '<data-1 id="c2">\n' },
          file,
          { type: 'text', text: '\n</data-1>\n\nWhat do these show?' },
        ],
      },
    ],
  };
}

/** The merged text segments of `mediaRequest`'s user message, in order. */
export const mediaRequestTexts = [
  '<data-1 id="c1">\n',
  '\n</data-1>\n\n<data-1 id="c2">\n',
  '\n</data-1>\n\nWhat do these show?',
];

/** A request with one message of `role` carrying an image (which no adapter sends). */
export function misplacedMedia(role: Message['role']): ModelRequest {
  const user: Message = { role: 'user', content: [{ type: 'text', text: 'Look.' }] };
  const misplaced: Message = {
    role,
    content: [{ type: 'text', text: 'Here:' }, pngImage],
    ...(role === 'tool' && { call_id: 'call_1', tool: 'lookup' }),
  };
  return { messages: role === 'system' ? [misplaced, user] : [user, misplaced] };
}
