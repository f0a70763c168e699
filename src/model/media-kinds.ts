// The kinds of media a model may read, and the MIME types each part type takes: shared by the Reason
// contract (src/contracts/media-part.ts), the catalog and the adapters.

/** What a model must read to take a part: the catalog's `inputModalities` name these. */
export const mediaModalities = ['image', 'audio', 'pdf'] as const;
export type MediaModality = (typeof mediaModalities)[number];
export const inputModalities = ['text', ...mediaModalities] as const;
export type InputModality = (typeof inputModalities)[number];

/** The MIME types each part type takes: the ones every provider that reads the modality accepts. */
export const mediaTypes = {
  image: ['image/png', 'image/jpeg', 'image/gif', 'image/webp'],
  audio: ['audio/wav', 'audio/mpeg'],
  file: ['application/pdf'],
} as const;
export type MediaPartType = keyof typeof mediaTypes;

/** The modality a part needs, by its type (a file is a PDF: the one file type every reader takes). */
export function modalityOf(type: MediaPartType): MediaModality {
  return type === 'file' ? 'pdf' : type;
}
