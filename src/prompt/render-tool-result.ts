import type { PromptMode } from '../contracts/reason-request';
import type { ToolResultError, ToolStatus } from '../contracts/tool-status';
import type { Message } from '../model/message';
import { datamarkChar } from './datamark-char';
import { serializeContent } from './normalize-content';
import type { NormalizeCounts } from './normalize-text';
import { renderRegion } from './render-region';
import { truncateText } from './truncate-text';
import { writeRegionBody } from './write-region-body';

export interface ToolResult {
  callId: string;
  tool: string;
  content: string | Record<string, unknown> | unknown[];
  /** How the call ended; success when absent. */
  status?: ToolStatus;
  error?: ToolResultError;
  /** Who wrote it: a reviewer's rejection or answer is labelled as the reviewer's, not the tool's. */
  source?: 'tool' | 'reviewer';
  /** The tool's `maxResultChars`: more is cut, with a marker saying so. */
  maxChars?: number;
}

/** The result as text, an error first, cut to `maxChars` with a marker where it was cut. */
function resultText(result: ToolResult): { text: string; truncated: boolean } {
  const content = serializeContent(result.content);
  const cut =
    result.maxChars === undefined
      ? { text: content, truncated: false }
      : truncateText(content, result.maxChars);
  const marker = cut.truncated
    ? `\n[cut by Valve: ${cut.text.length} of ${content.length} characters of the result are shown]`
    : '';
  const error =
    result.error === undefined
      ? ''
      : `[error ${result.error.code}${result.error.retryable ? ', retryable' : ''}] ${result.error.message}\n`;
  return { text: `${error}${cut.text}${marker}`, truncated: cut.truncated };
}

function labelOf(result: ToolResult): string {
  const what =
    result.source === 'reviewer' ? `reviewer's answer for ${result.tool}` : `result of ${result.tool}`;
  return result.status === undefined || result.status === 'success' ? what : `${what} (${result.status})`;
}

/**
 * A tool's result fed back to the model: a `tool` message (the provider's tool-result channel) whose
 * content is one untrusted region, id `t-<callId>`, in the request's mode. Tool output is never trusted.
 * `onCounts` hears what normalization removed or replaced, for the prompt's warnings.
 */
export function renderToolResult(
  result: ToolResult,
  nonce: string,
  mode: PromptMode,
  onCounts?: (counts: NormalizeCounts) => void,
): Message {
  const mark = datamarkChar(nonce);
  const { text, truncated } = resultText(result);
  const written = writeRegionBody(text, mode, mark);
  onCounts?.(written);
  const region = renderRegion(
    nonce,
    { id: `t-${result.callId}`, label: labelOf(result), trust: 'untrusted', truncated },
    written.body,
  );
  return {
    role: 'tool',
    call_id: result.callId,
    tool: result.tool,
    content: [{ type: 'text', text: region }],
    ...(result.status === undefined ? {} : { status: result.status }),
  };
}
