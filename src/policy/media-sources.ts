import type { MediaModality } from '../contracts/media-part';
import type { ProviderKind } from '../model/provider-kind';

// Which sources each provider kind's API takes for each modality (docs/reason-api.md "Images, PDFs
// and audio"). Valve never downloads a URL itself: a `url` source goes only to a provider that fetches
// it, and only when the request allows URLs; a `fileId` only to the provider whose store holds it.
// Bytes (`base64`) go to any provider that reads the modality.

export type SourceKind = 'base64' | 'url' | 'fileId';

const accepted: Record<ProviderKind, Partial<Record<MediaModality, readonly SourceKind[]>>> = {
  // Chat Completions: `image_url` takes a data URL or an https URL it fetches; `input_audio` takes
  // base64 only; `file` takes `file_data` (base64) or a `file_id` of the Files API, no URL.
  openai: { image: ['base64', 'url', 'fileId'], audio: ['base64'], pdf: ['base64', 'fileId'] },
  // Messages: `image` and `document` sources of type base64, url (fetched by Anthropic) or file
  // (Files API, beta). No audio input.
  anthropic: { image: ['base64', 'url', 'fileId'], pdf: ['base64', 'url', 'fileId'] },
  // generateContent: `inlineData` (base64) or `fileData.fileUri`, a Files API URI (the file id);
  // arbitrary web URLs are not fetched by every model, so Valve does not send them.
  gemini: { image: ['base64', 'fileId'], audio: ['base64', 'fileId'], pdf: ['base64', 'fileId'] },
  // Workers AI vision models take the image's bytes in the request.
  'workers-ai': { image: ['base64'] },
  // The simulator reads bytes only, as the strictest provider does.
  sim: { image: ['base64'], audio: ['base64'], pdf: ['base64'] },
};

/** Whether a provider of this kind takes a part of this modality from this kind of source. */
export function acceptsSource(kind: ProviderKind, modality: MediaModality, source: SourceKind): boolean {
  return accepted[kind][modality]?.includes(source) ?? false;
}
