import { maxJsonDepth, parseJson } from '../../encoding/json-depth';
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

/**
 * Parses a tool call's arguments, under the depth rule every JSON text Valve reads keeps to. Anything
 * but a JSON object is an invalid call, kept raw; arguments nested too deep are not a call Valve can
 * read at all (`tooDeep`): the adapter answers the whole response as `invalid_response`.
 */
export function parseToolArguments(
  raw: string,
): { ok: true; args: Record<string, unknown> } | { ok: false; error: string; tooDeep?: true } {
  if (raw.trim() === '') return { ok: true, args: {} };
  const parsed = parseJson(raw);
  if (!parsed.ok)
    return parsed.problem === 'too_deep'
      ? { ok: false, error: `arguments nest deeper than ${maxJsonDepth} levels`, tooDeep: true }
      : { ok: false, error: 'arguments are not valid JSON' };
  const value = parsed.value;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    return { ok: true, args: value as Record<string, unknown> };
  }
  return { ok: false, error: 'arguments are not a JSON object' };
}
