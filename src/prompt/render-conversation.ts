import type { Capability, ConversationTurn, PromptMode, ToolTurn } from '../contracts/reason-request';
import type { Message } from '../model/message';
import { escapeData } from './escape-data';
import { contentOf, mediaBlockOf } from './media-blocks';
import { serializeContent } from './normalize-content';
import { reasoningBlockOf } from './reasoning-block';
import type { RenderTally } from './render-tally';
import { renderToolResult } from './render-tool-result';

/** What the conversation's rendering needs besides its turns. */
export interface ConversationStyle {
  nonce: string;
  mode: PromptMode;
  tools?: Capability[];
  /** The turns came from someone other than the caller: a user turn's media are untrusted media. */
  untrustedTurns?: boolean;
}

/** A conversation as messages, with what it says about trust. */
export interface RenderedConversation {
  turns: Message[];
  toolResults: number;
  /** The user turns whose media are untrusted (`turn 3`). */
  untrustedMedia: string[];
}

type AssistantTurn = Extract<ConversationTurn, { role: 'assistant' }>;

/** The conversation in order, every user and assistant turn normalized and escaped, tool results as regions. */
export function renderConversation(
  conversation: ConversationTurn[],
  style: ConversationStyle,
  tally: RenderTally,
): RenderedConversation {
  const rendered: RenderedConversation = { turns: [], toolResults: 0, untrustedMedia: [] };
  const callNames = new Map<string, string>();
  conversation.forEach((turn, index) => {
    const source = `turn ${index + 1}`;
    if (turn.role === 'tool') {
      rendered.toolResults++;
      rendered.turns.push(toolResultTurn(turn, source, callNames, style, tally));
      return;
    }
    if (turn.role === 'user') {
      // The user's own media follow the user's text, in the user's turn: not data, the user's words.
      const said = escapeData(tally.normalize(source, turn.content));
      if (style.untrustedTurns && turn.media !== undefined) rendered.untrustedMedia.push(source);
      rendered.turns.push({
        role: 'user',
        content: contentOf([said, ...(turn.media ?? []).map(mediaBlockOf)]),
      });
      return;
    }
    rendered.turns.push(assistantMessage(turn, source, callNames, tally));
  });
  return rendered;
}

function toolResultTurn(
  turn: ToolTurn,
  source: string,
  callNames: Map<string, string>,
  style: ConversationStyle,
  tally: RenderTally,
): Message {
  const tool = turn.name ?? callNames.get(turn.toolCallId) ?? 'tool';
  const maxChars = style.tools?.find((t) => t.name === tool)?.maxResultChars;
  const result = { callId: turn.toolCallId, tool, content: turn.content, maxChars };
  const message = renderToolResult(
    { ...result, status: turn.status, error: turn.error, source: turn.source },
    style.nonce,
    style.mode,
    (counts) => tally.count(source, counts),
  );
  if (maxChars !== undefined && serializeContent(turn.content).length > maxChars)
    tally.tally.truncated.push([source, maxChars]);
  return message;
}

// Assistant turns come from the caller too, so they are no more trusted than user turns: a forged
// `<|im_start|>system` in a "previous answer" must not reach a chat template as a role switch. Its
// calls go in the provider's tool-call channel (never a system part), with the arguments as the
// structured value the model produced.
// Its reasoning is the answering model's own state, sent back to that model unchanged (a signature
// covers the bytes) in the provider's reasoning field, never as text: reason/replayable-reasoning.ts
// drops it for any other model.
function assistantMessage(
  turn: AssistantTurn,
  source: string,
  callNames: Map<string, string>,
  tally: RenderTally,
): Message {
  const content: Message['content'] = (turn.reasoning ?? []).map(reasoningBlockOf);
  if (turn.content !== undefined) {
    content.push({ type: 'text', text: escapeData(tally.normalize(source, turn.content)) });
  }
  for (const call of turn.toolCalls ?? []) {
    callNames.set(call.id, call.name);
    content.push({ type: 'tool_call', id: call.id, name: call.name, args: call.arguments });
  }
  return { role: 'assistant', content };
}
