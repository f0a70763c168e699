import { type MediaModality, mediaTypes } from './media-kinds';
import type { ProviderKind } from './provider-kind';

// Which sources and MIME types each provider kind's API takes for each modality (docs/reason-api.md
// "Images, PDFs and audio"). Valve never downloads a URL itself: a `url` source goes only to a
// provider that fetches it, and only when the request allows URLs; a `fileId` only to the provider
// whose store holds it. Bytes (`base64`) go to any provider that reads the modality. The adapters
// refuse anything outside this table before sending, so planning and the wire agree.

export type SourceKind = 'base64' | 'url' | 'fileId';

const accepted: Record<ProviderKind, Partial<Record<MediaModality, readonly SourceKind[]>>> = {
  // Chat Completions (the user message's content parts, openai/openai-python
  // src/openai/types/chat/chat_completion_content_part_param.py, generated from the OpenAPI spec):
  // - `image_url.url` is "either a URL of the image or the base64 encoded image data": a data URL or an
  //   https URL OpenAI fetches; the part has no file id (file ids are the Responses API's `input_image`).
  // - `input_audio` takes base64 `data` and a `format` (wav, mp3) only.
  // - `file` takes `file_data` (base64) or `file_id`, PDF only; "External file URL (file_url): Not
  //   supported" for Chat Completions (https://developers.openai.com/api/docs/guides/file-inputs).
  openai: { image: ['base64', 'url'], audio: ['base64'], pdf: ['base64', 'fileId'] },
  // Messages: `image` and `document` blocks take a `source` of type base64, url (Anthropic fetches it)
  // or file (a Files API id, with the `anthropic-beta: files-api-2025-04-14` header)
  // (https://platform.claude.com/docs/en/build-with-claude/vision,
  // https://platform.claude.com/docs/en/build-with-claude/pdf-support,
  // https://platform.claude.com/docs/en/build-with-claude/files). No audio input. (On Bedrock and on
  // Google-managed Vertex only base64 sources work; the `anthropic` kind is Anthropic's own API.)
  anthropic: { image: ['base64', 'url', 'fileId'], pdf: ['base64', 'url', 'fileId'] },
  // generateContent: `inlineData` (base64), or `fileData.fileUri`: a Files API URI (the file id) or,
  // since January 2026, a public or signed https URL that Gemini fetches
  // (https://ai.google.dev/gemini-api/docs/file-input-methods, "External URLs";
  // https://blog.google/innovation-and-ai/technology/developers-tools/gemini-api-new-file-limits).
  // The docs except the Gemini 2.0 models from URL input; a catalog that serves one should not allow URLs.
  gemini: {
    image: ['base64', 'url', 'fileId'],
    audio: ['base64', 'url', 'fileId'],
    pdf: ['base64', 'url', 'fileId'],
  },
  // Workers AI vision models (@cf/meta/llama-4-scout-17b-16e-instruct) take an `image_url` content part
  // whose url must be a data URI: "HTTP URL will not be accepted" (the model's input schema,
  // https://developers.cloudflare.com/workers-ai/models/llama-4-scout-17b-16e-instruct/). No audio, no PDF.
  'workers-ai': { image: ['base64'] },
  // The simulator reads bytes only, as the strictest provider does.
  sim: { image: ['base64'], audio: ['base64'], pdf: ['base64'] },
};

/**
 * The MIME types a provider kind names for a modality, where it takes fewer than the contract
 * (src/contracts/media-part.ts `mediaTypes`); absent, every type of the contract is taken.
 */
const mimeTypes: Partial<Record<ProviderKind, Partial<Record<MediaModality, readonly string[]>>>> = {
  // PNG, JPEG, WEBP, non-animated GIF (https://developers.openai.com/api/docs/guides/images-vision);
  // `input_audio.format` is wav or mp3 (the adapter sends audio/wav as wav, audio/mpeg as mp3).
  openai: {
    image: ['image/png', 'image/jpeg', 'image/gif', 'image/webp'],
    audio: ['audio/wav', 'audio/mpeg'],
    pdf: ['application/pdf'],
  },
  // "Supported media types are image/jpeg, image/png, image/gif, and image/webp"
  // (https://platform.claude.com/docs/en/build-with-claude/working-with-messages, Vision); a PDF
  // document's `media_type` is application/pdf (https://platform.claude.com/docs/en/build-with-claude/pdf-support).
  anthropic: {
    image: ['image/png', 'image/jpeg', 'image/gif', 'image/webp'],
    pdf: ['application/pdf'],
  },
  // Images: PNG, JPEG, WEBP, HEIC, HEIF, no GIF (https://ai.google.dev/gemini-api/docs/image-understanding);
  // audio: WAV audio/wav, MP3 audio/mp3 (https://ai.google.dev/gemini-api/docs/audio; the adapter sends
  // audio/mpeg as audio/mp3); documents: application/pdf (https://ai.google.dev/gemini-api/docs/document-processing).
  gemini: {
    image: ['image/png', 'image/jpeg', 'image/webp'],
    audio: ['audio/wav', 'audio/mpeg'],
    pdf: ['application/pdf'],
  },
};

/** Whether a provider of this kind takes a part of this modality from this kind of source. */
export function acceptsSource(kind: ProviderKind, modality: MediaModality, source: SourceKind): boolean {
  return accepted[kind][modality]?.includes(source) ?? false;
}

/** Whether a provider of this kind reads a part of this modality and MIME type. */
export function acceptsMimeType(kind: ProviderKind, modality: MediaModality, mimeType: string): boolean {
  if (accepted[kind][modality] === undefined) return false;
  const named: readonly string[] =
    mimeTypes[kind]?.[modality] ?? mediaTypes[modality === 'pdf' ? 'file' : modality];
  return named.includes(mimeType);
}
