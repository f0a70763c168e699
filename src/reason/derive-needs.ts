import type { PrivacyLevel, ReasonRequest } from '../contracts/reason-request';
import { privacyLevels } from '../contracts/reason-request';
import { estimateTokens } from '../model/estimate-tokens';
import type { Message } from '../model/message';
import type { Needs } from '../policy/plan-types';

/** Chat formats wrap each message in role markers; a generous allowance per message. */
const messageOverheadTokens = 8;

/** What the request needs of a model: tools, JSON, the most sensitive privacy level, token counts. */
export function deriveNeeds(request: ReasonRequest, messages: Message[]): Needs {
  let privacy: PrivacyLevel = 'public';
  for (const item of request.context ?? []) {
    if (privacyLevels.indexOf(item.privacy) > privacyLevels.indexOf(privacy)) privacy = item.privacy;
  }
  let inputTokens = 0;
  for (const message of messages) {
    inputTokens += messageOverheadTokens;
    for (const block of message.content) {
      inputTokens += estimateTokens(block.type === 'text' ? block.text : JSON.stringify(block));
    }
  }
  for (const tool of request.tools ?? []) inputTokens += estimateTokens(JSON.stringify(tool));
  if (request.output?.schema) inputTokens += estimateTokens(JSON.stringify(request.output.schema));
  const choice = request.toolChoice;
  return {
    // A conversation with tool turns needs a model that reads the tool channel, even with no tools left.
    tools:
      (request.tools?.length ?? 0) > 0 || (request.conversation ?? []).some((turn) => turn.role === 'tool'),
    forcedToolCall: choice === 'required' || typeof choice === 'object',
    json: request.output?.format === 'json',
    privacy,
    inputTokens,
    maxOutputTokens: request.modelPolicy?.maxOutputTokens,
  };
}
