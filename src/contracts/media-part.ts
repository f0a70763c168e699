import { z } from 'zod';

// A media part of a context item or a user turn (docs/reason-api.md "Images, PDFs and audio"): an
// image, an audio clip or a file (PDF), from bytes, a URL or a provider's file id. It inherits its
// item's trust and privacy. The shapes follow the neutral content contract (a part's `type`, a
// `source` by `kind`, a MIME type), in the Reason API's camelCase.

export type { InputModality, MediaModality, MediaPartType } from '../model/media-kinds';
export { inputModalities, mediaModalities, mediaTypes, modalityOf } from '../model/media-kinds';

import { type MediaPartType, mediaTypes } from '../model/media-kinds';

/** Limits on what one request may carry, in decoded bytes (docs/reason-api.md). */
export const mediaLimits = {
  /** Anthropic takes images of up to 5 MB; the other providers more. */
  imageBytes: 5 * 1024 * 1024,
  audioBytes: 10 * 1024 * 1024,
  fileBytes: 10 * 1024 * 1024,
  /** Every part of a request together: Gemini's inline data and Valve's own memory bound it. */
  totalBytes: 12 * 1024 * 1024,
  partsPerRequest: 20,
  partsPerItem: 10,
  urlChars: 2048,
} as const;

/** The most decoded bytes a part of this type may carry. */
export function maxBytesOf(type: MediaPartType): number {
  if (type === 'image') return mediaLimits.imageBytes;
  if (type === 'audio') return mediaLimits.audioBytes;
  return mediaLimits.fileBytes;
}

// Standard base64 (RFC 4648 §4), padded: what every provider's inline data takes. Checked by a
// search for one character outside the alphabet, which never backtracks: an anchored pattern over
// megabytes of base64 exhausts the regex engine's backtracking stack in workerd.
const outsideAlphabet = /[^A-Za-z0-9+/=]/;

/** Whether `data` is padded standard base64: whole quads of the alphabet, `=` only at the end. */
export function isPaddedBase64(data: string): boolean {
  if (data.length % 4 !== 0 || outsideAlphabet.test(data)) return false;
  const pad = data.indexOf('=');
  return pad === -1 || (pad >= data.length - 2 && (pad === data.length - 1 || data.endsWith('==')));
}

/** The most base64 characters any part may carry: the largest per-part limit, encoded. */
const maxBase64Chars = Math.ceil(Math.max(10 * 1024 * 1024, 5 * 1024 * 1024) / 3) * 4;

/** The decoded length of padded standard base64 of `chars` characters ending in `padding` `=`. */
export function decodedLength(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return (data.length / 4) * 3 - padding;
}

export const mediaSourceSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('base64'),
    data: z
      .string()
      .min(4)
      .max(maxBase64Chars, `must be at most ${maxBase64Chars} characters (10 MiB encoded)`)
      .refine(isPaddedBase64, 'must be padded standard base64 (A–Z, a–z, 0–9, +, /, =), no data: prefix'),
  }),
  z.strictObject({
    kind: z.literal('url'),
    url: z.url({ protocol: /^https$/, error: 'must be an https URL' }).max(mediaLimits.urlChars),
  }),
  z.strictObject({
    kind: z.literal('fileId'),
    fileId: z.string().regex(/^[A-Za-z0-9._:/-]{1,256}$/, 'must be a provider file id (1–256 characters)'),
    /** The catalog provider whose file store holds it: only that provider's models can be planned. */
    provider: z.string().min(1).max(64),
  }),
]);
export type MediaSource = z.infer<typeof mediaSourceSchema>;

// biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point.
const oneLine = /^[^\x00-\x1F\x7F-\x9F\u2028\u2029"<>]*$/;

export const mediaPartSchema = z
  .strictObject({
    type: z.enum(['image', 'audio', 'file']),
    mimeType: z.string().max(64),
    source: mediaSourceSchema,
    /** A file's name as the provider is given it (OpenAI's `file.filename`); one line. */
    filename: z
      .string()
      .min(1)
      .max(256)
      .regex(oneLine, 'a filename must be one line, without quotes or angle brackets')
      .optional(),
  })
  .superRefine((part, ctx) => {
    const accepted: readonly string[] = mediaTypes[part.type];
    if (!accepted.includes(part.mimeType)) {
      ctx.addIssue({
        code: 'custom',
        path: ['mimeType'],
        message: `${part.type === 'file' ? 'a' : 'an'} ${part.type} part takes ${accepted.join(', ')}`,
      });
    }
    if (part.source.kind === 'base64') {
      const max = maxBytesOf(part.type);
      if (decodedLength(part.source.data) > max) {
        ctx.addIssue({
          code: 'custom',
          path: ['source', 'data'],
          message: `${part.type === 'file' ? 'a' : 'an'} ${part.type} part carries at most ${max} bytes`,
        });
      }
    }
  });
export type MediaPart = z.infer<typeof mediaPartSchema>;

export const mediaListSchema = z.array(mediaPartSchema).min(1).max(mediaLimits.partsPerItem);

/** What a request lets Valve do with media (docs/trust.md). */
export const mediaPolicySchema = z.strictObject({
  /** `false` refuses the request when an untrusted context item carries media; default `true`. */
  allowUntrusted: z.boolean().optional(),
  /** `true` sends `url` sources to providers that fetch them themselves; default `false` refuses them. */
  allowUrls: z.boolean().optional(),
});
export type MediaPolicy = z.infer<typeof mediaPolicySchema>;

/** A request's media against the limits on a whole request: the issue's path and what is wrong. */
export interface MediaIssue {
  path: (string | number)[];
  message: string;
}

interface PlacedPart {
  path: (string | number)[];
  /** Decoded bytes of an inline part; 0 for a URL or a file id. */
  bytes: number;
}

type MediaList = { source: { kind: string; data?: string } }[];

/** Too many media parts in one request, or too many bytes together (`mediaLimits`); none when within. */
export function requestMediaIssues(request: {
  context?: { media?: MediaList }[];
  conversation?: { role: string; media?: MediaList }[];
}): MediaIssue[] {
  const parts = placedMediaParts(request);
  const issues: MediaIssue[] = [];
  if (parts.length > mediaLimits.partsPerRequest) {
    issues.push({
      path: parts[mediaLimits.partsPerRequest]?.path ?? [],
      message: `a request carries at most ${mediaLimits.partsPerRequest} media parts`,
    });
  }
  const total = parts.reduce((sum, p) => sum + p.bytes, 0);
  if (total > mediaLimits.totalBytes) {
    issues.push({
      path: [],
      message: `the media parts carry ${total} bytes together, over the limit of ${mediaLimits.totalBytes}`,
    });
  }
  return issues;
}

function placedMediaParts(request: {
  context?: { media?: MediaList }[];
  conversation?: { role: string; media?: MediaList }[];
}): PlacedPart[] {
  const placed: PlacedPart[] = [];
  const lists = [
    ...(request.context ?? []).map((item, i) => ({ media: item.media, at: ['context', i] })),
    ...(request.conversation ?? []).map((turn, i) => ({ media: turn.media, at: ['conversation', i] })),
  ];
  for (const { media, at } of lists) {
    for (const [k, part] of (media ?? []).entries()) {
      const bytes = part.source.kind === 'base64' ? decodedLength(part.source.data ?? '') : 0;
      placed.push({ path: [...at, 'media', k], bytes });
    }
  }
  return placed;
}
