import type { PromptMode } from '../contracts/reason-request';
import type { Message } from '../model/message';
import { datamarkChar } from './datamark-char';
import { serializeContent } from './normalize-content';
import type { NormalizeCounts } from './normalize-text';
import { renderRegion } from './render-region';
import { writeRegionBody } from './write-region-body';

export interface ToolResult {
  callId: string;
  tool: string;
  content: string | Record<string, unknown> | unknown[];
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
  const written = writeRegionBody(serializeContent(result.content), mode, mark);
  onCounts?.(written);
  const region = renderRegion(
    nonce,
    { id: `t-${result.callId}`, label: `result of ${result.tool}`, trust: 'untrusted' },
    written.body,
  );
  return {
    role: 'tool',
    call_id: result.callId,
    tool: result.tool,
    content: [{ type: 'text', text: region }],
  };
}
