import { z } from 'zod';
import type { MediaPart, MediaPartType } from '../../contracts/media-part';
import { invalidParam, type ParamPath } from '../invalid-param';
import {
  checkedPart,
  mimeTypeOfName,
  type PlacedPart,
  takesType,
  typeProblem,
  urlExtensionOf,
} from '../media-parts';
import { readPart } from '../read-part';
import { cacheControlSchema, textBlockSchema } from './messages-request';
import type { AnthropicThinking } from './thinking-blocks';

// Anthropic's content blocks, each read strictly where it stands (a member Valve does not know, or a
// value it cannot map, is a 400 naming that member): text, images and PDFs in user messages, tool calls
// and thinking in assistant messages, tool results in user messages.

const cache = { cache_control: cacheControlSchema.nullish() };

const imageBlock = z.strictObject({
  type: z.literal('image'),
  source: z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('base64'), media_type: z.string(), data: z.string() }),
    z.strictObject({ type: z.literal('url'), url: z.string() }),
  ]),
  transformations: z.unknown().optional(),
  ...cache,
});

const documentBlock = z.strictObject({
  type: z.literal('document'),
  source: z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('base64'), media_type: z.literal('application/pdf'), data: z.string() }),
    z.strictObject({ type: z.literal('url'), url: z.string() }),
    z.strictObject({ type: z.literal('text'), media_type: z.literal('text/plain'), data: z.string() }),
    z.strictObject({ type: z.literal('content'), content: z.union([z.string(), z.array(textBlockSchema)]) }),
  ]),
  title: z.string().nullish(),
  context: z.string().nullish(),
  citations: z.unknown().optional(),
  ...cache,
});

export const toolUseBlock = z.strictObject({
  type: z.literal('tool_use'),
  id: z.string().min(1),
  name: z.string().min(1),
  input: z.record(z.string(), z.unknown()),
  caller: z.unknown().optional(),
  toolset_name: z.string().nullish(),
  ...cache,
});

export const toolResultBlock = z.strictObject({
  type: z.literal('tool_result'),
  tool_use_id: z.string().min(1),
  content: z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]).optional(),
  is_error: z.boolean().optional(),
  toolset_name: z.string().nullish(),
  ...cache,
});

const thinkingBlock = z.strictObject({
  type: z.literal('thinking'),
  thinking: z.string(),
  signature: z.string(),
});
const redactedThinkingBlock = z.strictObject({ type: z.literal('redacted_thinking'), data: z.string() });

/** A text block's text. */
export function textOfBlock(block: unknown, at: ParamPath): string {
  return readPart(textBlockSchema, block, at).text;
}

/** A thinking or redacted_thinking block, read whole (its signature is kept byte for byte). */
export function thinkingOfBlock(block: { type: string }, at: ParamPath): AnthropicThinking {
  return block.type === 'thinking'
    ? readPart(thinkingBlock, block, at)
    : readPart(redactedThinkingBlock, block, at);
}

/** An https URL's part, its type read from its path's extension as at the OpenAI door. */
function urlPart(type: MediaPartType, url: string, at: ParamPath): MediaPart {
  if (!url.startsWith('https://')) throw invalidParam(at, 'must be an https URL');
  const extension = urlExtensionOf(url);
  const mimeType = extension === undefined ? undefined : mimeTypeOfName(`.${extension}`);
  if (mimeType === undefined || !takesType(type, mimeType))
    throw invalidParam(
      at,
      extension === undefined
        ? 'Valve reads a URL’s type from its extension, and this path has none: send the bytes as a base64 source instead'
        : `${typeProblem(type, `a .${extension} URL`)}: send the bytes as a base64 source if it is one of these`,
    );
  return checkedPart({ type, mimeType, source: { kind: 'url', url } }, { source: at });
}

/** What a user message's image or document block becomes: a media part, or (a text document) text. */
export type UserBlock = { media: PlacedPart } | { text: string };

/** An `image` block as an image part: base64 (PNG, JPEG, GIF, WebP) or an https URL. */
export function imageOfBlock(block: unknown, at: ParamPath): PlacedPart {
  const { source } = readPart(imageBlock, block, at);
  if (source.type === 'url') {
    const where = [...at, 'source', 'url'];
    return { part: urlPart('image', source.url, where), at: where };
  }
  const where = [...at, 'source', 'data'];
  const part = checkedPart(
    { type: 'image', mimeType: source.media_type, source: { kind: 'base64', data: source.data } },
    { source: where, mimeType: [...at, 'source', 'media_type'] },
  );
  return { part, at: where };
}

/**
 * A `document` block: a PDF (base64 or an https URL) is a file part (its title and context are not
 * sent); a plain-text or content document is text of the message, after its title and context.
 */
export function documentOfBlock(block: unknown, at: ParamPath): UserBlock {
  const document = readPart(documentBlock, block, at);
  const { source } = document;
  if (source.type === 'base64' || source.type === 'url') {
    const where = [...at, 'source', source.type === 'url' ? 'url' : 'data'];
    const part: MediaPart =
      source.type === 'url'
        ? urlPart('file', source.url, where)
        : checkedPart(
            { type: 'file', mimeType: 'application/pdf', source: { kind: 'base64', data: source.data } },
            { source: where },
          );
    return { media: { part, at: where } };
  }
  const body =
    source.type === 'text'
      ? source.data
      : typeof source.content === 'string'
        ? source.content
        : source.content.map((text) => text.text).join('\n');
  return {
    text: [document.title, document.context, body]
      .filter((line) => typeof line === 'string' && line !== '')
      .join('\n'),
  };
}

/** A tool result's content as the tool turn's text; images and documents in it are left out (`dropped`). */
export function toolResultTextOf(
  content: z.infer<typeof toolResultBlock>['content'],
  at: ParamPath,
): { text: string; dropped: string[] } {
  if (content === undefined) return { text: '', dropped: [] };
  if (typeof content === 'string') return { text: content, dropped: [] };
  const texts: string[] = [];
  const dropped: string[] = [];
  content.forEach((block, k) => {
    if (block.type === 'text') texts.push(textOfBlock(block, [...at, k]));
    else dropped.push(block.type);
  });
  return { text: texts.join('\n'), dropped };
}
