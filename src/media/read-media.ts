import type { MediaPart } from '../contracts/media-part';
import type { ReasonRequest } from '../contracts/reason-request';
import { type MediaModality, modalityOf } from '../model/media-kinds';
import type { SourceKind } from '../model/media-sources';
import type { MediaPricing } from './pricing-basis';

/** One media part of a request, with its place in it. */
export interface PlacedMedia {
  part: MediaPart;
  /** Where it is, as the trace names it: `context[0].media[1]`. */
  path: string;
  /** Where it is, as an error names it (a JSON Pointer): `/context/0/media/1`. */
  pointer: string;
  /** A context item's trust; undefined for a user turn's part (a door says whether its turns are trusted). */
  trust?: 'trusted' | 'untrusted';
}

/** A way a part needs to be read: a model must take its modality, source kind and MIME type. */
export interface MediaSourceNeed {
  modality: MediaModality;
  kind: SourceKind;
  mimeType: string;
  /** For a file id: the provider whose file store holds it. */
  provider?: string;
}

/**
 * A request's media as every stage after validation sees them, read from the request once: the parts
 * in order (context items', then user turns'), the characters their sources take in the body, what
 * they need of a model, and, once measured (measure-media.ts), their input tokens and how each was
 * priced. Unmeasured, `tokens` is 0 and `priced` empty.
 */
export interface RequestMedia {
  parts: PlacedMedia[];
  /** The characters of the sources (base64 data, URLs): ASCII, so as many bytes of the body. */
  sourceChars: number;
  /** Each distinct way a part is sourced, in the order first seen. */
  sources: MediaSourceNeed[];
  /** The modalities the parts carry, sorted. */
  modalities: MediaModality[];
  /** The parts' input tokens together, at the most any provider charges. */
  tokens: number;
  priced: MediaPricing[];
}

/** A request that carries no media. */
export const noMedia: RequestMedia = {
  parts: [],
  sourceChars: 0,
  sources: [],
  modalities: [],
  tokens: 0,
  priced: [],
};

/** Reads the request's media parts, without reading their bytes (measureMedia does, once admitted). */
export function readMedia(request: Pick<ReasonRequest, 'context' | 'conversation'>): RequestMedia {
  const parts: PlacedMedia[] = [];
  for (const [i, item] of (request.context ?? []).entries())
    for (const [k, part] of (item.media ?? []).entries())
      parts.push({
        part,
        path: `context[${i}].media[${k}]`,
        pointer: `/context/${i}/media/${k}`,
        trust: item.trust,
      });
  for (const [i, turn] of (request.conversation ?? []).entries()) {
    if (turn.role !== 'user') continue;
    for (const [k, part] of (turn.media ?? []).entries())
      parts.push({ part, path: `conversation[${i}].media[${k}]`, pointer: `/conversation/${i}/media/${k}` });
  }
  if (parts.length === 0) return noMedia;
  return { ...noMedia, parts, sourceChars: sumOf(parts.map(sourceCharsOf)), ...needsOf(parts) };
}

function sourceCharsOf({ part: { source } }: PlacedMedia): number {
  if (source.kind === 'base64') return source.data.length;
  if (source.kind === 'url') return source.url.length;
  return 0;
}

function needsOf(parts: PlacedMedia[]): Pick<RequestMedia, 'sources' | 'modalities'> {
  const sources = new Map<string, MediaSourceNeed>();
  for (const { part } of parts) {
    const want: MediaSourceNeed = {
      modality: modalityOf(part.type),
      kind: part.source.kind,
      mimeType: part.mimeType,
      ...(part.source.kind === 'fileId' && { provider: part.source.provider }),
    };
    sources.set(JSON.stringify(want), want);
  }
  const modalities = [...new Set([...sources.values()].map((s) => s.modality))].sort();
  return { sources: [...sources.values()], modalities };
}

function sumOf(values: number[]): number {
  return values.reduce((sum, value) => sum + value, 0);
}
