import type { MediaPart } from '../contracts/media-part';
import type { ContentBlock, MediaBlock } from '../model/message';

// Media in a rendered prompt. A message's content is built from segments: text and media blocks, in
// order; adjacent text is merged, so a message without media is one text block as before.

export type Segment = string | MediaBlock;

/**
 * What stands for a media block when a message's text parts are read as one text (the region
 * parser's view of a wire message: docs/trust.md). U+FFFC OBJECT REPLACEMENT CHARACTER.
 */
export const mediaPlaceholder = '\uFFFC';

/** The neutral block of a Reason media part. A fileId's provider was checked by planning. */
export function mediaBlockOf(part: MediaPart): MediaBlock {
  const source: MediaBlock['source'] =
    part.source.kind === 'base64'
      ? { kind: 'base64', data: part.source.data }
      : part.source.kind === 'url'
        ? { kind: 'url', url: part.source.url }
        : { kind: 'file_id', file_id: part.source.fileId };
  return {
    type: part.type,
    source,
    mime_type: part.mimeType,
    ...(part.filename !== undefined && { filename: part.filename }),
  };
}

/** Segments as message content: adjacent text merged, empty text dropped. */
export function contentOf(segments: readonly Segment[]): ContentBlock[] {
  const blocks: ContentBlock[] = [];
  let text = '';
  for (const segment of segments) {
    if (typeof segment === 'string') {
      text += segment;
      continue;
    }
    if (text !== '') blocks.push({ type: 'text', text });
    text = '';
    blocks.push(segment);
  }
  if (text !== '' || blocks.length === 0) blocks.push({ type: 'text', text });
  return blocks;
}

/** Segment lists joined by a separator, as strings are joined. */
export function joinSegments(lists: readonly Segment[][], separator: string): Segment[] {
  return lists.flatMap((list, i) => (i === 0 ? list : [separator, ...list]));
}
