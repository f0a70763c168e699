import { modalityOf } from '../../model/media-kinds';
import { acceptsMimeType, acceptsSource, type SourceKind } from '../../model/media-sources';
import type { ContentBlock, MediaBlock, MediaSource, Message } from '../../model/message';
import type { ProviderKind } from '../../model/provider-kind';
import type { CallContext } from './fail';
import { notSent } from './send-request';

// Media blocks (images, audio, PDFs) on their way to a provider. The renderer puts them in user
// messages only, between text blocks; each adapter turns such a message into the provider's multipart
// content, in the same order, and leaves a message without media exactly as it sent it before.

export function isMediaBlock(block: ContentBlock): block is MediaBlock {
  return block.type === 'image' || block.type === 'audio' || block.type === 'file';
}

/** A piece of a user message's content: its merged text between media blocks, or one media block. */
export type ContentSegment = { type: 'text'; text: string } | { type: 'media'; media: MediaBlock };

function sourceKindOf(source: MediaSource): SourceKind {
  return source.kind === 'file_id' ? 'fileId' : source.kind;
}

const sourceNames: Record<SourceKind, string> = { base64: 'bytes', url: 'a URL', fileId: 'a file id' };

function describe(block: MediaBlock): string {
  const what = block.type === 'file' ? 'a file' : block.type === 'image' ? 'an image' : 'audio';
  return `${what} (${block.mime_type}) from ${sourceNames[sourceKindOf(block.source)]}`;
}

function refuse(context: CallContext, message: string): never {
  throw notSent(context, 'invalid_request', message);
}

/** The refusal, before anything is sent, of a media block this provider does not take. */
export function unsupportedMedia(context: CallContext, block: MediaBlock): never {
  return refuse(context, `${context.provider} does not take ${describe(block)}.`);
}

/** A block this provider kind takes, or a refusal before anything is sent. */
function checked(block: MediaBlock, kind: ProviderKind, context: CallContext): MediaBlock {
  const modality = modalityOf(block.type);
  if (
    !acceptsSource(kind, modality, sourceKindOf(block.source)) ||
    !acceptsMimeType(kind, modality, block.mime_type)
  ) {
    unsupportedMedia(context, block);
  }
  return block;
}

function refuseOutsideUser(message: Message, context: CallContext): void {
  if (message.role !== 'user' && message.content.some(isMediaBlock)) {
    refuse(
      context,
      `Valve sends images, audio and files in user messages only, not in ${message.role === 'assistant' ? 'an' : 'a'} ${message.role} message.`,
    );
  }
}

/**
 * Refuses a request with media outside its user messages: a system message is the trusted channel
 * and carries text only; assistant and tool messages carry no media. Each adapter checks this first,
 * so that no message's media are silently dropped where its text is read alone.
 */
export function checkMediaPlacement(messages: readonly Message[], context: CallContext): void {
  for (const message of messages) refuseOutsideUser(message, context);
}

/**
 * The content of a message that carries media, in order: consecutive text (and JSON) blocks merged
 * into one text segment, empty text dropped, each media block checked against what this provider kind
 * takes. Undefined for a message without media, whose wire form stays as it was. Media outside a user
 * message (a system, assistant or tool message) is refused: the renderer never puts them there.
 */
export function mediaSegments(
  message: Message,
  kind: ProviderKind,
  context: CallContext,
): ContentSegment[] | undefined {
  if (!message.content.some(isMediaBlock)) return undefined;
  refuseOutsideUser(message, context);
  const segments: ContentSegment[] = [];
  let text = '';
  const flush = () => {
    if (text !== '') segments.push({ type: 'text', text });
    text = '';
  };
  for (const block of message.content) {
    if (block.type === 'text') text += block.text;
    else if (block.type === 'json') text += JSON.stringify(block.value);
    else if (isMediaBlock(block)) {
      flush();
      segments.push({ type: 'media', media: checked(block, kind, context) });
    }
  }
  flush();
  return segments;
}

/** Whether any message of the request carries a block from a provider's file store. */
export function hasFileSource(messages: readonly Message[]): boolean {
  return messages.some((message) =>
    message.content.some((block) => isMediaBlock(block) && block.source.kind === 'file_id'),
  );
}

/** Bytes as a `data:` URL (OpenAI's image_url and file_data, Workers AI's image_url). */
export function dataUrl(mimeType: string, data: string): string {
  return `data:${mimeType};base64,${data}`;
}
