import type { ContentBlock, Message } from '../../model/message';

/** The text of a message's text and JSON blocks, in order; tool calls and reasoning are not text. */
export function messageText(message: Message): string {
  return message.content.map(blockText).join('');
}

function blockText(block: ContentBlock): string {
  if (block.type === 'text') return block.text;
  if (block.type === 'json') return JSON.stringify(block.value);
  return '';
}

/** Every system message's text, joined: the one trusted channel each provider has. */
export function systemText(messages: Message[]): string | undefined {
  const parts = messages.filter((message) => message.role === 'system').map(messageText);
  return parts.length === 0 ? undefined : parts.join('\n\n');
}

/** The tool calls of an assistant message. */
export function toolCallsOf(message: Message) {
  return message.content.flatMap((block) => (block.type === 'tool_call' ? [block] : []));
}

/** The tool every adapter forces when JSON output is asked of a model without native structured output. */
export const jsonToolName = 'json_output';

/** Parses a tool call's arguments; anything but a JSON object is an invalid call, kept raw. */
export function parseToolArguments(
  raw: string,
): { ok: true; args: Record<string, unknown> } | { ok: false; error: string } {
  if (raw.trim() === '') return { ok: true, args: {} };
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      return { ok: true, args: value as Record<string, unknown> };
    }
    return { ok: false, error: 'arguments are not a JSON object' };
  } catch {
    return { ok: false, error: 'arguments are not valid JSON' };
  }
}
