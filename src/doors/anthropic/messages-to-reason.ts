import type {
  Capability,
  ConversationTurn,
  Reasoning,
  ToolCallTurnCall,
  ToolChoice,
} from '../../contracts/reason-request';
import type { Warning } from '../../contracts/reason-response';
import { buildReasonRequest, type InstructionPart } from '../build-reason-request';
import { invalidParam, type ParamPath } from '../invalid-param';
import { checkDoorMedia, type PlacedPart } from '../media-parts';
import type { DoorRequest } from '../pipeline-request';
import { readPart } from '../read-part';
import { cacheOf } from './cache-breakpoints';
import {
  documentOfBlock,
  imageOfBlock,
  textOfBlock,
  thinkingOfBlock,
  toolResultBlock,
  toolResultTextOf,
  toolUseBlock,
} from './content-blocks';
import type { CountTokensRequest, MessageParam, MessagesRequest } from './messages-request';
import { type AnthropicThinking, reasoningItemsOf } from './thinking-blocks';
import { toolsOf } from './tools-of';

// Messages API → Reason request, mapping version `anthropic.messages/1` (docs/anthropic-door.md has
// every rule). `system`, and system messages, are the caller's trusted instructions; every user and
// assistant message and every tool result is an untrusted turn. Deterministic: the receipt commits to
// the derived request, so the same body always gives the same request.

export const messagesTask = 'anthropic.messages/1';

/** What the door read besides the request: its own warnings. */
export interface MessagesMapping extends DoorRequest {
  notes: Warning[];
}

function note(code: string, message: string): Warning {
  return { code, message };
}

/** The instruction parts of `system`: the string, or each text block. */
function systemPartsOf(system: MessagesRequest['system']): InstructionPart[] {
  if (system === undefined) return [];
  if (typeof system === 'string') return system === '' ? [] : [{ text: system, param: ['system'] }];
  return system.map((block, i) => ({ text: block.text, param: ['system', i, 'text'] }));
}

interface Turns {
  instructions: InstructionPart[];
  turns: ConversationTurn[];
  sources: number[];
  media: PlacedPart[][];
  notes: Warning[];
}

const blocksOf = (content: MessageParam['content']): { type: string }[] =>
  typeof content === 'string' ? [{ type: 'text' }] : content;

function userMessage(message: MessageParam, i: number, into: Turns, toolNames: Map<string, string>): void {
  const texts: string[] = [];
  const media: PlacedPart[] = [];
  blocksOf(message.content).forEach((block, j) => {
    const at: ParamPath = ['messages', i, 'content', j];
    switch (block.type) {
      case 'text':
        texts.push(typeof message.content === 'string' ? message.content : textOfBlock(block, at));
        return;
      case 'image':
        media.push(imageOfBlock(block, at));
        return;
      case 'document': {
        const read = documentOfBlock(block, at);
        if ('media' in read) media.push(read.media);
        else texts.push(read.text);
        return;
      }
      case 'tool_result': {
        const result = readPart(toolResultBlock, block, at);
        const name = toolNames.get(result.tool_use_id);
        if (name === undefined)
          throw invalidParam(
            [...at, 'tool_use_id'],
            'answers no tool_use block of an earlier assistant message',
          );
        const { text, dropped } = toolResultTextOf(result.content, [...at, 'content']);
        if (dropped.length > 0)
          into.notes.push(
            note(
              'anthropic.content_dropped',
              `Valve sent only the text of the tool result at messages[${i}].content[${j}]: its ${dropped.join(', ')} block(s) were left out (a tool result carries text only).`,
            ),
          );
        into.sources.push(i);
        into.turns.push({
          role: 'tool',
          toolCallId: result.tool_use_id,
          name,
          content: result.is_error === true ? { is_error: true, content: text } : text,
        });
        return;
      }
      default:
        throw invalidParam(
          at,
          `content blocks of type '${block.type}' are not supported in a user message: it takes text, image, document and tool_result blocks`,
        );
    }
  });
  if (texts.length === 0 && media.length === 0) return;
  into.media.push(media);
  into.sources.push(i);
  const content = texts.join('\n');
  into.turns.push(
    media.length > 0
      ? { role: 'user', content, media: media.map((placed) => placed.part) }
      : { role: 'user', content },
  );
}

function assistantMessage(
  message: MessageParam,
  i: number,
  into: Turns,
  toolNames: Map<string, string>,
): void {
  const texts: string[] = [];
  const calls: ToolCallTurnCall[] = [];
  const thinking: { block: AnthropicThinking; at: ParamPath }[] = [];
  blocksOf(message.content).forEach((block, j) => {
    const at: ParamPath = ['messages', i, 'content', j];
    switch (block.type) {
      case 'text':
        texts.push(typeof message.content === 'string' ? message.content : textOfBlock(block, at));
        return;
      case 'tool_use': {
        const use = readPart(toolUseBlock, block, at);
        toolNames.set(use.id, use.name);
        calls.push({ id: use.id, name: use.name, arguments: use.input });
        return;
      }
      case 'thinking':
      case 'redacted_thinking':
        thinking.push({ block: thinkingOfBlock(block, at), at });
        return;
      default:
        throw invalidParam(
          at,
          `content blocks of type '${block.type}' are not supported in an assistant message: it takes text, tool_use, thinking and redacted_thinking blocks`,
        );
    }
  });
  // Thinking Valve gave goes back to the model that made it; thinking from elsewhere names no model.
  const { items, foreign } = reasoningItemsOf(thinking);
  if (foreign > 0) {
    into.notes.push(
      note(
        'anthropic.thinking_dropped',
        `Valve did not send ${foreign} thinking block(s) of messages[${i}] to the model: their signature is not one a Valve answer gave, so no model is known to read them.`,
      ),
    );
  }
  const content = texts.join('\n');
  if (calls.length === 0 && content === '') return;
  const reasoning = items.length > 0 ? { reasoning: items } : {};
  into.sources.push(i);
  into.turns.push(
    calls.length === 0
      ? { role: 'assistant', content, ...reasoning }
      : content === ''
        ? { role: 'assistant', toolCalls: calls, ...reasoning }
        : { role: 'assistant', content, toolCalls: calls, ...reasoning },
  );
}

function turnsOf(body: CountTokensRequest): Turns {
  const into: Turns = {
    instructions: systemPartsOf(body.system),
    turns: [],
    sources: [],
    media: [],
    notes: [],
  };
  const toolNames = new Map<string, string>();
  body.messages.forEach((message, i) => {
    if (message.role === 'user') userMessage(message, i, into, toolNames);
    else if (message.role === 'assistant') assistantMessage(message, i, into, toolNames);
    else
      blocksOf(message.content).forEach((block, j) => {
        const at: ParamPath = ['messages', i, 'content', ...(typeof message.content === 'string' ? [] : [j])];
        const text = typeof message.content === 'string' ? message.content : textOfBlock(block, at);
        into.instructions.push({ text, param: at });
      });
  });
  return into;
}

function toolChoiceOf(body: CountTokensRequest, tools: Capability[]): ToolChoice | undefined {
  const choice = body.tool_choice;
  if (choice === undefined) return undefined;
  if (choice.type === 'auto') return 'auto';
  if (choice.type === 'any') return 'required';
  if (choice.type === 'none') return 'none';
  if (!tools.some((tool) => tool.name === choice.name))
    throw invalidParam(['tool_choice', 'name'], `names no tool of 'tools'`);
  return { name: choice.name };
}

/**
 * Thinking as Valve's `reasoning`: `enabled` with its budget, `disabled` as off. `adaptive` leaves the
 * model to decide, which is each model's default (one that cannot think answers without thinking), so
 * it asks for nothing; Claude Code sends it with every request, to whatever model answers.
 */
export function reasoningOf(body: CountTokensRequest): Reasoning | undefined {
  const thinking = body.thinking;
  if (thinking?.type === 'enabled') return { budgetTokens: thinking.budget_tokens };
  if (thinking?.type === 'disabled') return { enabled: false };
  return undefined;
}

/** The Reason request a Messages API body means, for `model` (a catalog id or a routing alias). */
export function messagesToReason(body: MessagesRequest | CountTokensRequest, model: string): MessagesMapping {
  const { instructions, turns, sources, media, notes } = turnsOf(body);
  checkDoorMedia(media, body.valve?.context, body.valve?.mediaPolicy);
  const tools = toolsOf(body.tools);
  const sampling = 'max_tokens' in body ? body : undefined;
  const stop = sampling?.stop_sequences;
  if (stop !== undefined && stop.length > 4)
    throw invalidParam(
      ['stop_sequences'],
      'Valve sends at most 4 stop sequences, the most every provider takes',
    );
  const format = body.output_config?.format;
  const choice = body.tool_choice;
  const disableParallel =
    choice && 'disable_parallel_tool_use' in choice ? choice.disable_parallel_tool_use : undefined;
  const cached = cacheOf(body, instructions);
  const request = buildReasonRequest({
    task: messagesTask,
    model,
    instructions,
    conversation: turns,
    tools,
    toolChoice: toolChoiceOf(body, tools),
    parallelToolCalls: disableParallel === undefined ? undefined : !disableParallel,
    sampling: {
      temperature: sampling?.temperature,
      topP: sampling?.top_p,
      stop: stop !== undefined && stop.length > 0 ? stop : undefined,
    },
    reasoning: reasoningOf(body),
    output: format ? { format: 'json', schema: format.schema } : undefined,
    cache: cached.cache,
    valve: body.valve,
  });
  return { request, instructions, turnSources: sources, notes: [...notes, ...cached.notes] };
}
