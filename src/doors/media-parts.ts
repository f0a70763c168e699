import {
  decodedLength,
  type MediaPart,
  type MediaPartType,
  type MediaPolicy,
  mediaLimits,
  mediaPartSchema,
  mediaTypes,
} from '../contracts/media-part';
import type { ContextItem } from '../contracts/reason-request';
import { ApiError } from '../errors';
import { invalidParam, openaiParamOf, type ParamPath, pointerOf } from './invalid-param';

// The media parts a door reads out of a message (images, audio, PDFs), checked against the Reason
// contract where they stand in the body: a 400 names the content part's own member (its URL, its
// data, its filename), not the Reason request the door derives from it.

/** A media part, and the content part of the body it was read from. */
export interface PlacedPart {
  part: MediaPart;
  at: ParamPath;
}

/** Where in the body a part's source, MIME type and filename were read from. */
export interface PartOrigin {
  source: ParamPath;
  /** Where the MIME type was read from (the data URL, a format, a filename); the source by default. */
  mimeType?: ParamPath;
  filename?: ParamPath;
}

/** What a data URL carries: its MIME type, lower-cased, and its base64 data. */
export interface DataUrl {
  mimeType: string;
  data: string;
}

/** Names a MIME type is sent under besides its registered one. */
const aliases: Record<string, string> = { 'image/jpg': 'image/jpeg', 'audio/mp3': 'audio/mpeg' };

/**
 * The MIME type and base64 data of a `data:<type>[;param=value]*;base64,<data>` URL; undefined for
 * anything else (a data URL that is not base64 included). Read by index, not by a pattern, since the
 * data can be megabytes.
 */
export function dataUrlOf(url: string): DataUrl | undefined {
  if (!url.startsWith('data:')) return undefined;
  const comma = url.indexOf(',');
  if (comma < 0) return undefined;
  const header = url.slice(5, comma).split(';');
  if (header.length < 2 || header.at(-1)?.toLowerCase() !== 'base64') return undefined;
  const mimeType = (header[0] ?? '').trim().toLowerCase();
  return { mimeType: aliases[mimeType] ?? mimeType, data: url.slice(comma + 1) };
}

const byExtension: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  pdf: 'application/pdf',
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
};

/** The MIME type a URL's or a filename's extension names (`.png`, `.pdf`…), if Valve knows it. */
export function mimeTypeOfName(name: string): string | undefined {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? undefined : byExtension[name.slice(dot + 1).toLowerCase()];
}

/** The extension of an https URL's path, or undefined when its last segment has none. */
export function urlExtensionOf(url: string): string | undefined {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return undefined;
  }
  const last = path.slice(path.lastIndexOf('/') + 1);
  const dot = last.lastIndexOf('.');
  return dot < 0 ? undefined : last.slice(dot + 1).toLowerCase();
}

/** The types a part of this type takes, as a sentence: `image/png, image/jpeg, image/gif or image/webp`. */
export function acceptedTypes(type: MediaPartType): string {
  const list: readonly string[] = mediaTypes[type];
  return list.length === 1 ? (list[0] ?? '') : `${list.slice(0, -1).join(', ')} or ${list.at(-1)}`;
}

/** Whether a part of this type takes this MIME type. */
export function takesType(type: MediaPartType, mimeType: string): boolean {
  return (mediaTypes[type] as readonly string[]).includes(mimeType);
}

const kinds = { image: 'an image', audio: 'audio' } as const;

/** Why a part of this type cannot be of this MIME type: what Valve takes instead. */
export function typeProblem(type: MediaPartType, mimeType: string): string {
  const sent = mimeType === '' ? 'a data URL without a type' : mimeType;
  if (type === 'file') return `Valve takes files as PDF only (application/pdf), not ${sent}`;
  return `Valve takes ${kinds[type]} only as ${acceptedTypes(type)}, not ${sent}`;
}

/**
 * The part as the contract takes it: a 400 naming the body member a problem comes from (the MIME
 * type's origin, the source, the filename) and the contract's reason (not base64, too large…).
 */
export function checkedPart(candidate: MediaPart, origin: PartOrigin): MediaPart {
  if (!takesType(candidate.type, candidate.mimeType))
    throw invalidParam(origin.mimeType ?? origin.source, typeProblem(candidate.type, candidate.mimeType));
  const checked = mediaPartSchema.safeParse(candidate);
  if (checked.success) return checked.data;
  const issue = checked.error.issues[0];
  const member = issue?.path[0];
  const at =
    member === 'filename' && origin.filename !== undefined
      ? origin.filename
      : member === 'mimeType'
        ? (origin.mimeType ?? origin.source)
        : origin.source;
  throw invalidParam(at, issue?.message ?? 'is not a media part Valve takes');
}

/** The decoded bytes a part carries inline (0 for a URL or a file id). */
function bytesOf(part: MediaPart): number {
  return part.source.kind === 'base64' ? decodedLength(part.source.data) : 0;
}

/**
 * The contract's limits on a request's media, checked where the body breaks them: a message's
 * eleventh part, the request's twenty-first (counting `valve.context`'s first), the part at which the
 * bytes go over the request's total. Then its `mediaPolicy`: a URL source without `allowUrls` is
 * refused here, naming the part, as the pipeline would refuse it naming a Reason path instead.
 */
export function checkDoorMedia(
  turns: readonly (readonly PlacedPart[])[],
  context: readonly ContextItem[] | undefined,
  policy: MediaPolicy | undefined,
): void {
  for (const placed of turns) {
    const over = placed[mediaLimits.partsPerItem];
    if (over !== undefined)
      throw invalidParam(
        over.at,
        `a message carries at most ${mediaLimits.partsPerItem} images, audio clips and files`,
      );
  }
  const contextParts = (context ?? []).flatMap((item) => item.media ?? []);
  let count = contextParts.length;
  let bytes = contextParts.reduce((sum, part) => sum + bytesOf(part), 0);
  for (const { part, at } of turns.flat()) {
    count += 1;
    bytes += bytesOf(part);
    if (count > mediaLimits.partsPerRequest)
      throw invalidParam(
        at,
        `a request carries at most ${mediaLimits.partsPerRequest} images, audio clips and files (valve.context's included)`,
      );
    if (bytes > mediaLimits.totalBytes)
      throw invalidParam(
        at,
        `the media parts up to this one carry ${bytes} bytes together, over the limit of ${mediaLimits.totalBytes} bytes a request may carry`,
      );
  }
  if (policy?.allowUrls === true) return;
  const url = turns.flat().find(({ part }) => part.source.kind === 'url');
  if (url === undefined) return;
  const param = openaiParamOf(pointerOf(url.at));
  throw new ApiError(
    'request.media_refused',
    `Invalid '${param}': a URL source, and valve.mediaPolicy.allowUrls is not true. Valve never fetches a URL itself, and sends one only to a provider that fetches it when the request allows it; send the bytes as a data URL instead.`,
    { details: { path: pointerOf(url.at), param } },
  );
}
