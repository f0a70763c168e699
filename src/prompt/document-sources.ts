import type { MediaBlock, Message } from '../model/message';

/**
 * Where each document of a rendered prompt came from: for every `file` block of the messages, in
 * message order (the order providers count the documents they are sent, as Anthropic's
 * `document_index` does), the index of the context item that carried it, or null for a file a
 * conversation turn carried. `origins` maps the blocks the renderer made for context items to their items.
 */
export function documentSourcesOf(
  messages: readonly Message[],
  origins: ReadonlyMap<MediaBlock, number>,
): (number | null)[] {
  return messages.flatMap((message) =>
    message.content.flatMap((block) => (block.type === 'file' ? [origins.get(block) ?? null] : [])),
  );
}
