import type { Capability, ConversationTurn, ReasoningItem } from '../../contracts/reason-request';
import { buildReasonRequest, type InstructionPart, reasoningOfEffort } from '../build-reason-request';
import { invalidParam, type ParamPath } from '../invalid-param';
import { checkDoorMedia, type PlacedPart } from '../media-parts';
import type { DoorRequest } from '../pipeline-request';
import { decodeReasoning } from '../reasoning-carrier';
import { type ApprovalAnswer, approvalAnswerOf } from './approval-responses';
import { argumentsOf, fileProviderOf, partRefusal, userTurnOf } from './chat-to-reason';
import { type MediaScope, responsesMediaPart, responsesMediaTypes } from './media-parts';
import type { ResponsesRequest } from './responses-request';

// Responses API → Reason request, mapping version `openai.responses/1`: `instructions` and system or
// developer items → instructions; user and assistant messages → conversation; `function_call` and
// `function_call_output` items → tool turns. Valve keeps no content, so nothing refers to state, except
// `mcp_approval_response` items, which name a call Valve held for a reviewer (its own
// `mcp_approval_request` items, sent back, are left out: the door puts a rejected call back itself).

export const responsesTask = 'openai.responses/1';

type Item = Extract<ResponsesRequest['input'], unknown[]>[number];

type Part = { type?: unknown; text?: unknown };

/** Every part the Responses API defines for a message, besides text: only a user message carries them. */
const mediaTypes: readonly string[] = [...responsesMediaTypes, 'input_audio'];

function partsOf(content: unknown, path: ParamPath): Part[] {
  if (!Array.isArray(content)) throw invalidParam(path, 'must be a string or an array of content parts');
  return content as Part[];
}

function isText(part: Part): part is { type: string; text: string } {
  return (part?.type === 'input_text' || part?.type === 'output_text') && typeof part.text === 'string';
}

/** Text content: a string, or text parts joined with "\n"; any other part is a 400 naming it. */
function textOf(content: unknown, path: ParamPath, holder: string): string {
  if (typeof content === 'string') return content;
  return partsOf(content, path)
    .map((part, j) => {
      if (!isText(part)) throw partRefusal(String(part?.type), holder, mediaTypes, [...path, j]);
      return part.text;
    })
    .join('\n');
}

/** A user message's text parts joined with "\n", and its images and files in their order. */
function userContentOf(content: unknown, path: ParamPath, scope: MediaScope) {
  if (typeof content === 'string') return { text: content, media: [] };
  const texts: string[] = [];
  const media: PlacedPart[] = [];
  partsOf(content, path).forEach((part, j) => {
    const at = [...path, j];
    if (isText(part)) texts.push(part.text);
    else if (part?.type === 'input_audio')
      throw invalidParam(
        at,
        'a Responses API message carries no audio (its input parts are input_text, input_image and input_file): send audio through Chat Completions as an input_audio part',
      );
    else if ((responsesMediaTypes as readonly unknown[]).includes(part?.type))
      media.push(responsesMediaPart(part as { type: string }, at, scope));
    else throw partRefusal(String(part?.type), 'a user message', responsesMediaTypes, at);
  });
  return { text: texts.join('\n'), media };
}

function stringField(item: Item, name: string, path: ParamPath): string {
  const value = (item as Record<string, unknown>)[name];
  if (typeof value !== 'string' || value === '')
    throw invalidParam([...path, name], 'must be a non-empty string');
  return value;
}

function stateless(request: ResponsesRequest): void {
  if (request.store === true)
    throw invalidParam(
      ['store'],
      'Valve keeps no content, so it cannot store responses: send store: false or leave it out',
    );
  if (request.previous_response_id != null)
    throw invalidParam(
      ['previous_response_id'],
      'Valve keeps no content: send the whole conversation as input',
    );
  if (request.conversation != null)
    throw invalidParam(['conversation'], 'Valve keeps no content: send the whole conversation as input');
}

export interface ResponsesDoorRequest extends DoorRequest {
  /** The `mcp_approval_response` items of the input, in order. */
  approvalAnswers: ApprovalAnswer[];
}

export function responsesToReason(request: ResponsesRequest): ResponsesDoorRequest {
  stateless(request);
  const instructions: InstructionPart[] = [];
  if (request.instructions) instructions.push({ text: request.instructions, param: ['instructions'] });
  const turns: ConversationTurn[] = [];
  // The input item each turn starts at, for errors that name a turn (-1: the input is one string).
  const sources: number[] = [];
  const toolNames = new Map<string, string>();
  const approvalAnswers: ApprovalAnswer[] = [];
  // Each mcp_approval_request item sent back, by id: the assistant turn of the answer that held its call.
  const requestAnchors = new Map<string, number>();
  // Each user message's media parts, and where they came from, for the request's limits.
  const media: PlacedPart[][] = [];
  const scope: MediaScope = { fileProvider: fileProviderOf(request.model, request.valve) };
  const items: Item[] =
    typeof request.input === 'string' ? [{ role: 'user', content: request.input }] : request.input;
  // A `reasoning` item Valve gave goes with the assistant turn next to it: the one it precedes (as
  // OpenAI orders output) or, when it follows the turn (as Valve orders its output), the one before.
  let pending: ReasoningItem[] = [];
  const assistantTurn = (turn: ConversationTurn) => {
    if (turn.role === 'assistant' && pending.length > 0) {
      turn.reasoning = [...(turn.reasoning ?? []), ...pending];
      pending = [];
    }
    return turn;
  };
  const producesAssistant = (item: Item | undefined) =>
    item !== undefined &&
    (item.type === 'function_call' || ((item.type ?? 'message') === 'message' && item.role === 'assistant'));
  items.forEach((item, i) => {
    const at: ParamPath = typeof request.input === 'string' ? ['input'] : ['input', i];
    const type = item.type ?? 'message';
    if (type === 'reasoning') {
      const carried = decodeReasoning((item as Record<string, unknown>).encrypted_content, [
        ...at,
        'encrypted_content',
      ]);
      const last = turns.at(-1);
      if (producesAssistant(items[i - 1]) && last?.role === 'assistant') {
        last.reasoning = [...(last.reasoning ?? []), ...carried];
      } else if (producesAssistant(items[i + 1])) {
        pending.push(...carried);
      } else {
        throw invalidParam(
          at,
          'a reasoning item goes next to the assistant message or function_call it came with',
        );
      }
      return;
    }
    if (type === 'message') {
      const content = (item as Record<string, unknown>).content;
      const where = typeof request.input === 'string' ? at : [...at, 'content'];
      if (item.role === 'system' || item.role === 'developer')
        instructions.push({
          text: textOf(content, where, `a ${item.role} message`),
          param: [...at, 'content'],
        });
      else if (item.role === 'user') {
        const user = userContentOf(content, where, scope);
        media.push(user.media);
        sources.push(typeof request.input === 'string' ? -1 : i);
        turns.push(userTurnOf(user.text, user.media));
      } else if (item.role === 'assistant') {
        sources.push(i);
        turns.push(
          assistantTurn({ role: 'assistant', content: textOf(content, where, 'an assistant message') }),
        );
      } else throw invalidParam([...at, 'role'], `must be user, assistant, system or developer`);
    } else if (type === 'function_call') {
      const id = stringField(item, 'call_id', at);
      const name = stringField(item, 'name', at);
      toolNames.set(id, name);
      const call = {
        id,
        name,
        arguments: argumentsOf(stringField(item, 'arguments', at), [...at, 'arguments']),
      };
      const last = turns.at(-1);
      // Consecutive calls are one assistant turn, as a model emits them.
      if (last?.role === 'assistant' && last.toolCalls !== undefined) {
        last.toolCalls.push(call);
        assistantTurn(last);
      } else {
        sources.push(i);
        turns.push(assistantTurn({ role: 'assistant', toolCalls: [call] }));
      }
    } else if (type === 'function_call_output') {
      const id = stringField(item, 'call_id', at);
      const name = toolNames.get(id);
      if (name === undefined)
        throw invalidParam([...at, 'call_id'], 'answers no function_call earlier in input');
      const output = (item as Record<string, unknown>).output;
      sources.push(i);
      turns.push({
        role: 'tool',
        toolCallId: id,
        name,
        content: textOf(output, [...at, 'output'], 'a function_call_output'),
      });
    } else if (type === 'mcp_approval_response') {
      const answer = approvalAnswerOf(item as Record<string, unknown>, at);
      const anchor = requestAnchors.get(String((item as Record<string, unknown>).approval_request_id));
      approvalAnswers.push(anchor === undefined ? answer : { ...answer, anchor });
    } else if (type === 'mcp_approval_request') {
      const assistant = turns.findLastIndex((turn) => turn.role === 'assistant');
      const id = (item as Record<string, unknown>).id;
      if (assistant >= 0 && typeof id === 'string') requestAnchors.set(id, assistant);
    } else {
      throw invalidParam([...at, 'type'], `input items of type '${type}' are not supported`);
    }
  });
  checkDoorMedia(media, request.valve?.context, request.valve?.mediaPolicy);
  const tools: Capability[] = (request.tools ?? []).map((tool) => ({
    name: tool.name,
    ...(tool.description != null && { description: tool.description }),
    inputSchema: tool.parameters ?? { type: 'object', properties: {} },
  }));
  const choice = request.tool_choice ?? undefined;
  if (typeof choice === 'object' && !tools.some((tool) => tool.name === choice.name))
    throw invalidParam(['tool_choice', 'name'], `names no tool of 'tools'`);
  const format = request.text?.format;
  const reason = buildReasonRequest({
    task: responsesTask,
    model: request.model,
    instructions,
    conversation: turns,
    tools,
    toolChoice: typeof choice === 'object' ? { name: choice.name } : choice,
    parallelToolCalls: request.parallel_tool_calls ?? undefined,
    sampling: { temperature: request.temperature ?? undefined, topP: request.top_p ?? undefined },
    reasoning: reasoningOfEffort(
      request.reasoning?.effort,
      request.reasoning?.summary ?? request.reasoning?.generate_summary,
    ),
    output:
      format?.type === 'json_schema'
        ? { format: 'json', schema: format.schema }
        : format?.type === 'json_object'
          ? { format: 'json', schema: { type: 'object' } }
          : undefined,
    maxOutputTokens: request.max_output_tokens ?? undefined,
    valve: request.valve,
  });
  return { request: reason, instructions, turnSources: sources, approvalAnswers };
}
