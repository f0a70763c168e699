import { z } from 'zod';
import { isPaddedBase64, type MediaPart, type MediaPartType } from '../../contracts/media-part';
import { invalidParam, type ParamPath } from '../invalid-param';
import {
  checkedPart,
  dataUrlOf,
  mimeTypeOfName,
  type PartOrigin,
  type PlacedPart,
  takesType,
  typeProblem,
  urlExtensionOf,
} from '../media-parts';

// OpenAI's image, audio and file content parts as Reason media parts (docs/openai-door.md "Images,
// PDFs and audio"). Chat Completions: `image_url`, `input_audio`, `file`; the Responses API:
// `input_image`, `input_file` (its messages take no audio). Each part is read strictly: a member Valve
// does not know, or a value it cannot map, is a 400 naming that member.

/** What mapping a part needs beyond the part: whose file store a `file_id` is in. */
export interface MediaScope {
  /** The provider of the pinned model, whose store holds a `file_id`; undefined when Valve chooses the model. */
  fileProvider: () => string | undefined;
}

/** Caching hints on a part: accepted and not applied, as `prompt_cache_options` is. */
const cacheBreakpoint = z
  .strictObject({ mode: z.literal('explicit'), ttl: z.enum(['30m', '12h']).nullish() })
  .nullish();
/** How finely the model should look at an image: not applied (docs/openai.md), `openai.param_ignored`. */
export const imageDetails = ['auto', 'low', 'high', 'original'] as const;
const imageDetail = z.enum(imageDetails).nullish();

const chatImagePart = z.strictObject({
  type: z.literal('image_url'),
  image_url: z.strictObject({ url: z.string(), detail: imageDetail }),
  prompt_cache_breakpoint: cacheBreakpoint,
});

const chatAudioPart = z.strictObject({
  type: z.literal('input_audio'),
  input_audio: z.strictObject({ data: z.string(), format: z.enum(['wav', 'mp3']) }),
  prompt_cache_breakpoint: cacheBreakpoint,
});

const chatFilePart = z.strictObject({
  type: z.literal('file'),
  file: z.strictObject({
    file_data: z.string().nullish(),
    file_id: z.string().nullish(),
    filename: z.string().nullish(),
  }),
  prompt_cache_breakpoint: cacheBreakpoint,
});

const responsesImagePart = z.strictObject({
  type: z.literal('input_image'),
  image_url: z.string().nullish(),
  file_id: z.string().nullish(),
  detail: imageDetail,
  prompt_cache_breakpoint: cacheBreakpoint,
});

const responsesFilePart = z.strictObject({
  type: z.literal('input_file'),
  file_data: z.string().nullish(),
  file_id: z.string().nullish(),
  file_url: z.string().nullish(),
  filename: z.string().nullish(),
  detail: z.enum(['auto', 'low', 'high']).nullish(),
  prompt_cache_breakpoint: cacheBreakpoint,
});

/** The part read by `schema`, or a 400 naming the member that does not fit. */
function read<T extends z.ZodType>(schema: T, part: unknown, at: ParamPath): z.infer<T> {
  const result = schema.safeParse(part);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = (issue?.path ?? []).map((key) => (typeof key === 'symbol' ? String(key) : key));
  if (issue?.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    throw invalidParam([...at, ...path, key], `unknown field \`${key}\``);
  }
  throw invalidParam([...at, ...path], issue?.message ?? 'is not a content part Valve reads');
}

/** Exactly one of a part's alternative sources: the one set, or a 400 naming the part. */
function oneOf<K extends string>(
  part: Partial<Record<K, string | null>>,
  names: readonly K[],
  at: ParamPath,
): { name: K; value: string } {
  const set = names.filter((name) => typeof part[name] === 'string');
  if (set.length !== 1)
    throw invalidParam(
      at,
      set.length === 0
        ? `needs one of ${names.join(', ')}`
        : `sets ${set.join(' and ')}: set only one of ${names.join(', ')}`,
    );
  const name = set[0] as K;
  return { name, value: part[name] as string };
}

/** A filename, and where the body gave it. */
interface Named {
  name: string;
  at: ParamPath;
}

/** The extension of a file's name, lower-cased, if it has one. */
function extensionOf(name: string): string | undefined {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? undefined : name.slice(dot + 1).toLowerCase();
}

/** A data URL's bytes as a part of this type, the MIME type checked against the type. */
function fromDataUrl(type: MediaPartType, url: string, at: ParamPath, filename?: Named): MediaPart {
  const data = dataUrlOf(url);
  if (data === undefined)
    throw invalidParam(at, 'must be a base64 data URL (data:<MIME type>;base64,<data>)');
  if (!isPaddedBase64(data.data))
    throw invalidParam(
      at,
      'the data after ";base64," must be padded standard base64 (A–Z, a–z, 0–9, +, /, =)',
    );
  const candidate: MediaPart = { type, mimeType: data.mimeType, source: { kind: 'base64', data: data.data } };
  if (filename !== undefined) candidate.filename = filename.name;
  const origin: PartOrigin = { source: at, ...(filename && { filename: filename.at }) };
  return checkedPart(candidate, origin);
}

/** An https URL the provider fetches (when the request allows it), its type read from its extension. */
function fromHttpsUrl(type: MediaPartType, url: string, at: ParamPath, filename?: Named): MediaPart {
  if (!url.startsWith('https://'))
    throw invalidParam(
      at,
      url.startsWith('data:')
        ? 'must be a base64 data URL (data:<MIME type>;base64,<data>)'
        : 'must be an https URL or a base64 data URL',
    );
  const extension = urlExtensionOf(url);
  const mimeType = extension === undefined ? undefined : mimeTypeOfName(`.${extension}`);
  if (mimeType === undefined || !takesType(type, mimeType))
    throw invalidParam(
      at,
      extension === undefined
        ? `Valve reads a URL's type from its extension, and this path has none: send the bytes as a data URL instead`
        : `${typeProblem(type, `a .${extension} URL`)}: send the bytes as a data URL if it is one of these`,
    );
  const part: MediaPart = { type, mimeType, source: { kind: 'url', url } };
  if (filename !== undefined) part.filename = filename.name;
  return checkedPart(part, { source: at, ...(filename && { filename: filename.at }) });
}

/** A `file_id` in the pinned provider's store, read as a PDF; a 400 when Valve chooses the provider. */
function fromFileId(fileId: string, at: ParamPath, scope: MediaScope, filename?: Named): MediaPart {
  const provider = scope.fileProvider();
  if (provider === undefined)
    throw invalidParam(
      at,
      'a file id names a file in one provider’s store, and Valve chooses the provider: pin a model ("provider/model") whose provider holds the file, or send the bytes as file_data',
    );
  const extension = filename === undefined ? undefined : extensionOf(filename.name);
  if (filename !== undefined && extension !== undefined && extension !== 'pdf')
    throw invalidParam(filename.at, `Valve takes files as PDF only, not a .${extension} file`);
  const part: MediaPart = {
    type: 'file',
    mimeType: 'application/pdf',
    source: { kind: 'fileId', fileId, provider },
  };
  if (filename !== undefined) part.filename = filename.name;
  return checkedPart(part, { source: at, ...(filename && { filename: filename.at }) });
}

/**
 * File data: a data URL (its MIME type must be application/pdf), or bare base64 whose bytes begin as
 * a PDF does (`%PDF-`, which is `JVBERi0` in base64), as OpenAI's reference describes `file_data`.
 */
function fromFileData(data: string, at: ParamPath, filename?: Named): MediaPart {
  if (data.startsWith('data:')) return fromDataUrl('file', data, at, filename);
  if (!data.startsWith('JVBERi0'))
    throw invalidParam(
      at,
      'must be a data URL (data:application/pdf;base64,<data>), or the base64 of a PDF: Valve takes files as PDF only',
    );
  return fromDataUrl('file', `data:application/pdf;base64,${data}`, at, filename);
}

/** A Chat Completions user message's media part: `image_url`, `input_audio` or `file`. */
export function chatMediaPart(part: { type: string }, at: ParamPath, scope: MediaScope): PlacedPart {
  if (part.type === 'image_url') {
    const { image_url } = read(chatImagePart, part, at);
    const url = [...at, 'image_url', 'url'];
    const media = image_url.url.startsWith('data:')
      ? fromDataUrl('image', image_url.url, url)
      : fromHttpsUrl('image', image_url.url, url);
    return { part: media, at: url };
  }
  if (part.type === 'input_audio') {
    const { input_audio } = read(chatAudioPart, part, at);
    const data = [...at, 'input_audio', 'data'];
    const media = checkedPart(
      {
        type: 'audio',
        mimeType: input_audio.format === 'wav' ? 'audio/wav' : 'audio/mpeg',
        source: { kind: 'base64', data: input_audio.data },
      },
      { source: data, mimeType: [...at, 'input_audio', 'format'] },
    );
    return { part: media, at: data };
  }
  const { file } = read(chatFilePart, part, at);
  const named: Named | undefined =
    typeof file.filename === 'string' ? { name: file.filename, at: [...at, 'file', 'filename'] } : undefined;
  const source = oneOf(file, ['file_data', 'file_id'], [...at, 'file']);
  const where = [...at, 'file', source.name];
  const media =
    source.name === 'file_data'
      ? fromFileData(source.value, where, named)
      : fromFileId(source.value, where, scope, named);
  return { part: media, at: where };
}

/** A Responses API user message's media part: `input_image` or `input_file`. */
export function responsesMediaPart(part: { type: string }, at: ParamPath, scope: MediaScope): PlacedPart {
  if (part.type === 'input_image') {
    const image = read(responsesImagePart, part, at);
    const source = oneOf(image, ['image_url', 'file_id'], at);
    const where = [...at, source.name];
    if (source.name === 'file_id')
      throw invalidParam(
        where,
        'Valve cannot tell an image’s type from its file id: send the image as image_url (a data URL)',
      );
    const media = source.value.startsWith('data:')
      ? fromDataUrl('image', source.value, where)
      : fromHttpsUrl('image', source.value, where);
    return { part: media, at: where };
  }
  const file = read(responsesFilePart, part, at);
  const named: Named | undefined =
    typeof file.filename === 'string' ? { name: file.filename, at: [...at, 'filename'] } : undefined;
  const source = oneOf(file, ['file_data', 'file_id', 'file_url'], at);
  const where = [...at, source.name];
  const media =
    source.name === 'file_data'
      ? fromFileData(source.value, where, named)
      : source.name === 'file_id'
        ? fromFileId(source.value, where, scope, named)
        : fromHttpsUrl('file', source.value, where, named);
  return { part: media, at: where };
}

/** The part types a user message takes besides text, by API. */
export const chatMediaTypes = ['image_url', 'input_audio', 'file'] as const;
export const responsesMediaTypes = ['input_image', 'input_file'] as const;
