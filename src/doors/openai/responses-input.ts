import type { ConversationTurn, ReasoningItem } from '../../contracts/reason-request';
import type { InstructionPart } from '../build-reason-request';
import { invalidParam, type ParamPath } from '../invalid-param';
import type { PlacedPart } from '../media-parts';
import { decodeReasoning } from '../reasoning-carrier';
import { type ApprovalAnswer, approvalAnswerOf } from './approval-responses';
import { argumentsOf, fileProviderOf, partRefusal, userTurnOf } from './chat-to-reason';
import { type MediaScope, responsesMediaPart, responsesMediaTypes } from './media-parts';
import type { ResponsesRequest } from './responses-request';

// A Responses API `input` read item by item into instructions, conversation turns and the approval
// answers, for `responsesToReason`.

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

/** What the input comes to, built up item by item. */
export interface ResponsesInput {
  instructions: InstructionPart[];
  turns: ConversationTurn[];
  // The input item each turn starts at, for errors that name a turn (-1: the input is one string).
  sources: number[];
  approvalAnswers: ApprovalAnswer[];
  // Each user message's media parts, and where they came from, for the request's limits.
  media: PlacedPart[][];
}

interface InputState extends ResponsesInput {
  request: ResponsesRequest;
  items: Item[];
  scope: MediaScope;
  toolNames: Map<string, string>;
  // Each mcp_approval_request item sent back, by id: the assistant turn of the answer that held its call.
  requestAnchors: Map<string, number>;
  // Reasoning items waiting for the assistant turn that follows them.
  pending: ReasoningItem[];
}

/** One input item: where it is, and its path for errors. */
interface At {
  item: Item;
  i: number;
  path: ParamPath;
}

/** The turn, given the reasoning items waiting for it when it is an assistant turn. */
function assistantTurn(state: InputState, turn: ConversationTurn): ConversationTurn {
  if (turn.role === 'assistant' && state.pending.length > 0) {
    turn.reasoning = [...(turn.reasoning ?? []), ...state.pending];
    state.pending = [];
  }
  return turn;
}

function producesAssistant(item: Item | undefined): boolean {
  return (
    item !== undefined &&
    (item.type === 'function_call' || ((item.type ?? 'message') === 'message' && item.role === 'assistant'))
  );
}

// A `reasoning` item Valve gave goes with the assistant turn next to it: the one it precedes (as
// OpenAI orders output) or, when it follows the turn (as Valve orders its output), the one before.
function takeReasoning(state: InputState, { item, i, path }: At): void {
  const carried = decodeReasoning((item as Record<string, unknown>).encrypted_content, [
    ...path,
    'encrypted_content',
  ]);
  const last = state.turns.at(-1);
  if (producesAssistant(state.items[i - 1]) && last?.role === 'assistant') {
    last.reasoning = [...(last.reasoning ?? []), ...carried];
  } else if (producesAssistant(state.items[i + 1])) {
    state.pending.push(...carried);
  } else {
    throw invalidParam(
      path,
      'a reasoning item goes next to the assistant message or function_call it came with',
    );
  }
}

function takeMessage(state: InputState, { item, i, path }: At): void {
  const content = (item as Record<string, unknown>).content;
  const oneString = typeof state.request.input === 'string';
  const where = oneString ? path : [...path, 'content'];
  if (item.role === 'system' || item.role === 'developer')
    state.instructions.push({
      text: textOf(content, where, `a ${item.role} message`),
      param: [...path, 'content'],
    });
  else if (item.role === 'user') {
    const user = userContentOf(content, where, state.scope);
    state.media.push(user.media);
    state.sources.push(oneString ? -1 : i);
    state.turns.push(userTurnOf(user.text, user.media));
  } else if (item.role === 'assistant') {
    state.sources.push(i);
    state.turns.push(
      assistantTurn(state, { role: 'assistant', content: textOf(content, where, 'an assistant message') }),
    );
  } else throw invalidParam([...path, 'role'], `must be user, assistant, system or developer`);
}

function takeFunctionCall(state: InputState, { item, i, path }: At): void {
  const id = stringField(item, 'call_id', path);
  const name = stringField(item, 'name', path);
  state.toolNames.set(id, name);
  const call = {
    id,
    name,
    arguments: argumentsOf(stringField(item, 'arguments', path), [...path, 'arguments']),
  };
  const last = state.turns.at(-1);
  // Consecutive calls are one assistant turn, as a model emits them.
  if (last?.role === 'assistant' && last.toolCalls !== undefined) {
    last.toolCalls.push(call);
    assistantTurn(state, last);
  } else {
    state.sources.push(i);
    state.turns.push(assistantTurn(state, { role: 'assistant', toolCalls: [call] }));
  }
}

function takeFunctionCallOutput(state: InputState, { item, i, path }: At): void {
  const id = stringField(item, 'call_id', path);
  const name = state.toolNames.get(id);
  if (name === undefined)
    throw invalidParam([...path, 'call_id'], 'answers no function_call earlier in input');
  const output = (item as Record<string, unknown>).output;
  state.sources.push(i);
  state.turns.push({
    role: 'tool',
    toolCallId: id,
    name,
    content: textOf(output, [...path, 'output'], 'a function_call_output'),
  });
}

function takeApprovalResponse(state: InputState, { item, path }: At): void {
  const answer = approvalAnswerOf(item as Record<string, unknown>, path);
  const anchor = state.requestAnchors.get(String((item as Record<string, unknown>).approval_request_id));
  state.approvalAnswers.push(anchor === undefined ? answer : { ...answer, anchor });
}

function takeApprovalRequest(state: InputState, { item }: At): void {
  const assistant = state.turns.findLastIndex((turn) => turn.role === 'assistant');
  const id = (item as Record<string, unknown>).id;
  if (assistant >= 0 && typeof id === 'string') state.requestAnchors.set(id, assistant);
}

function takeItem(state: InputState, at: At): void {
  const type = at.item.type ?? 'message';
  if (type === 'reasoning') takeReasoning(state, at);
  else if (type === 'message') takeMessage(state, at);
  else if (type === 'function_call') takeFunctionCall(state, at);
  else if (type === 'function_call_output') takeFunctionCallOutput(state, at);
  else if (type === 'mcp_approval_response') takeApprovalResponse(state, at);
  else if (type === 'mcp_approval_request') takeApprovalRequest(state, at);
  else throw invalidParam([...at.path, 'type'], `input items of type '${type}' are not supported`);
}

/** The request's `instructions` and `input`, read in order; a 400 names the first item Valve cannot take. */
export function readResponsesInput(request: ResponsesRequest): ResponsesInput {
  const state: InputState = {
    request,
    items: typeof request.input === 'string' ? [{ role: 'user', content: request.input }] : request.input,
    scope: { fileProvider: fileProviderOf(request.model, request.valve) },
    instructions: request.instructions ? [{ text: request.instructions, param: ['instructions'] }] : [],
    turns: [],
    sources: [],
    approvalAnswers: [],
    media: [],
    toolNames: new Map(),
    requestAnchors: new Map(),
    pending: [],
  };
  state.items.forEach((item, i) => {
    const path: ParamPath = typeof request.input === 'string' ? ['input'] : ['input', i];
    takeItem(state, { item, i, path });
  });
  const { instructions, turns, sources, approvalAnswers, media } = state;
  return { instructions, turns, sources, approvalAnswers, media };
}
