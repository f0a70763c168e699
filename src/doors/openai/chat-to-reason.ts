import type { Capability, ConversationTurn, ToolChoice } from '../../contracts/reason-request';
import { maxJsonDepth, parseJson } from '../../encoding/json-depth';
import {
  buildReasonRequest,
  type InstructionPart,
  policyOfModel,
  reasoningOfEffort,
} from '../build-reason-request';
import { invalidParam, type ParamPath } from '../invalid-param';
import { checkDoorMedia, type PlacedPart } from '../media-parts';
import type { DoorRequest } from '../pipeline-request';
import type { ValveOptions } from '../valve-options';
import type { ChatMessage, ChatRequest } from './chat-request';
import { chatMediaPart, chatMediaTypes, type MediaScope } from './media-parts';

// Chat Completions → Reason request, mapping version `openai.chat/1` (README "Use your OpenAI
// client" documents every rule). Deterministic: the same body always gives the same request.

export const chatTask = 'openai.chat/1';

type Content = ChatMessage['content'];

const mediaTypes: readonly string[] = chatMediaTypes;

/**
 * The 400 of a part its holder cannot carry: media anywhere but in a user message, or a type Valve does
 * not read. `holder` names what carries it (`a system message`, `a function_call_output`).
 */
export function partRefusal(type: string, holder: string, media: readonly string[], path: ParamPath) {
  if (media.includes(type))
    return invalidParam(
      path,
      `Valve takes images, audio and files in user messages only: ${holder} carries text`,
    );
  const takes =
    holder === 'a user message'
      ? `a user message takes text parts and ${media.join(', ')}`
      : `${holder} takes text parts`;
  return invalidParam(path, `content parts of type '${type}' are not supported: ${takes}`);
}

/** The text of a message's content: a string, or its text parts joined with "\n"; any other part is a 400. */
export function textOf(content: Content | null | undefined, path: ParamPath, role: string): string {
  const holder = `a${role === 'assistant' ? 'n' : ''} ${role} message`;
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  return content
    .map((part, j) => {
      if (part.type !== 'text' || typeof part.text !== 'string')
        throw partRefusal(part.type, holder, mediaTypes, [...path, j]);
      return part.text;
    })
    .join('\n');
}

/** A user message's text parts joined with "\n", and its images, audio and files in their order. */
function userContentOf(
  content: NonNullable<Content>,
  path: ParamPath,
  scope: MediaScope,
): { text: string; media: PlacedPart[] } {
  if (typeof content === 'string') return { text: content, media: [] };
  const texts: string[] = [];
  const media: PlacedPart[] = [];
  content.forEach((part, j) => {
    if (part.type === 'text' && typeof part.text === 'string') texts.push(part.text);
    else if (mediaTypes.includes(part.type)) media.push(chatMediaPart(part, [...path, j], scope));
    else throw partRefusal(part.type, 'a user message', mediaTypes, [...path, j]);
  });
  return { text: texts.join('\n'), media };
}

/** The user turn of a message's text and media: `media` only when there are some. */
export function userTurnOf(text: string, media: readonly PlacedPart[]): ConversationTurn {
  return media.length > 0
    ? { role: 'user', content: text, media: media.map((placed) => placed.part) }
    : { role: 'user', content: text };
}

/** The provider whose file store a `file_id` is in: the pinned model's, from `valve` or from `model`. */
export function fileProviderOf(model: string, valve: ValveOptions | undefined): () => string | undefined {
  return () => valve?.modelPolicy?.pinned?.provider ?? policyOfModel(model).pinned?.provider;
}

/** The arguments of a tool call the caller sends back: a JSON object, or a 400 naming it. */
export function argumentsOf(text: string, path: ParamPath): Record<string, unknown> {
  if (text.trim() === '') return {};
  const parsed = parseJson(text);
  if (!parsed.ok)
    throw invalidParam(
      path,
      parsed.problem === 'too_deep'
        ? `nests deeper than ${maxJsonDepth} levels of objects and arrays`
        : 'is not valid JSON',
    );
  const value = parsed.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw invalidParam(path, 'is not a JSON object');
  return value as Record<string, unknown>;
}

/** An assistant message's turn; it records the names of its tool calls for the tool messages after it. */
function assistantTurnOf(
  message: Extract<ChatMessage, { role: 'assistant' }>,
  i: number,
  toolNames: Map<string, string>,
): ConversationTurn {
  const content = textOf(message.content, ['messages', i, 'content'], 'assistant');
  const calls = message.tool_calls ?? [];
  const reasoning = message.valve?.reasoning ?? [];
  const carried = reasoning.length > 0 ? { reasoning } : {};
  if (calls.length === 0) return { role: 'assistant', content, ...carried };
  const toolCalls = calls.map((call, j) => {
    toolNames.set(call.id, call.function.name);
    return {
      id: call.id,
      name: call.function.name,
      arguments: argumentsOf(call.function.arguments, [
        'messages',
        i,
        'tool_calls',
        j,
        'function',
        'arguments',
      ]),
    };
  });
  return content === ''
    ? { role: 'assistant', toolCalls, ...carried }
    : { role: 'assistant', content, toolCalls, ...carried };
}

/** A tool message's turn: it answers a call of an earlier assistant message, whose name it takes. */
function toolTurnOf(
  message: Extract<ChatMessage, { role: 'tool' }>,
  i: number,
  toolNames: Map<string, string>,
): ConversationTurn {
  const name = toolNames.get(message.tool_call_id);
  if (name === undefined)
    throw invalidParam(
      ['messages', i, 'tool_call_id'],
      'answers no tool call of an earlier assistant message',
    );
  return {
    role: 'tool',
    toolCallId: message.tool_call_id,
    name,
    content: textOf(message.content, ['messages', i, 'content'], 'tool'),
  };
}

function turnsOf(
  messages: ChatMessage[],
  scope: MediaScope,
): {
  instructions: InstructionPart[];
  turns: ConversationTurn[];
  sources: number[];
  media: PlacedPart[][];
} {
  const instructions: InstructionPart[] = [];
  const turns: ConversationTurn[] = [];
  // Each turn comes from one message: its index, for errors that name a turn.
  const sources: number[] = [];
  // Each user message's media parts, and where they came from, for the request's limits.
  const media: PlacedPart[][] = [];
  const pushTurn = (source: number, turn: ConversationTurn) => {
    sources.push(source);
    turns.push(turn);
  };
  const toolNames = new Map<string, string>();
  messages.forEach((message, i) => {
    const at: ParamPath = ['messages', i, 'content'];
    switch (message.role) {
      case 'system':
      case 'developer':
        instructions.push({ text: textOf(message.content, at, message.role), param: at });
        return;
      case 'user': {
        const user = userContentOf(message.content, at, scope);
        media.push(user.media);
        pushTurn(i, userTurnOf(user.text, user.media));
        return;
      }
      case 'assistant':
        pushTurn(i, assistantTurnOf(message, i, toolNames));
        return;
      case 'tool':
        pushTurn(i, toolTurnOf(message, i, toolNames));
        return;
    }
  });
  return { instructions, turns, sources, media };
}

function toolsOf(request: ChatRequest): Capability[] {
  return (request.tools ?? []).map((tool) => ({
    name: tool.function.name,
    ...(tool.function.description != null && { description: tool.function.description }),
    inputSchema: tool.function.parameters ?? { type: 'object', properties: {} },
  }));
}

function toolChoiceOf(request: ChatRequest, tools: Capability[]): ToolChoice | undefined {
  const choice = request.tool_choice ?? undefined;
  if (choice === undefined || typeof choice === 'string') return choice;
  if (!tools.some((tool) => tool.name === choice.function.name))
    throw invalidParam(['tool_choice', 'function', 'name'], `names no tool of 'tools'`);
  return { name: choice.function.name };
}

/** The Reason request a Chat Completions body means. Throws a 400 (or 404 for an unknown model) naming the field. */
export function chatToReason(request: ChatRequest): DoorRequest {
  const { instructions, turns, sources, media } = turnsOf(request.messages, {
    fileProvider: fileProviderOf(request.model, request.valve),
  });
  checkDoorMedia(media, request.valve?.context, request.valve?.mediaPolicy);
  const tools = toolsOf(request);
  const format = request.response_format;
  const reason = buildReasonRequest({
    task: chatTask,
    model: request.model,
    instructions,
    conversation: turns,
    tools,
    toolChoice: toolChoiceOf(request, tools),
    parallelToolCalls: request.parallel_tool_calls ?? undefined,
    sampling: {
      temperature: request.temperature ?? undefined,
      topP: request.top_p ?? undefined,
      stop: typeof request.stop === 'string' ? [request.stop] : (request.stop ?? undefined),
      seed: request.seed ?? undefined,
    },
    reasoning: reasoningOfEffort(request.reasoning_effort),
    output:
      format?.type === 'json_schema'
        ? { format: 'json', schema: format.json_schema.schema ?? { type: 'object' } }
        : format?.type === 'json_object'
          ? { format: 'json', schema: { type: 'object' } }
          : undefined,
    maxOutputTokens: request.max_completion_tokens ?? request.max_tokens ?? undefined,
    valve: request.valve,
  });
  return { request: reason, instructions, turnSources: sources };
}
