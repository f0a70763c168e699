import type { Capability, ConversationTurn } from '../contracts/reason-request';
import { buildReasonRequest, type InstructionPart } from '../door/build-reason-request';
import { invalidParam, type ParamPath } from '../door/invalid-param';
import type { DoorRequest } from '../door/pipeline-request';
import { argumentsOf } from './chat-to-reason';
import type { ResponsesRequest } from './responses-request';

// Responses API → Reason request, mapping version `openai.responses/1`: `instructions` and system or
// developer items → instructions; user and assistant messages → conversation; `function_call` and
// `function_call_output` items → tool turns. Valve keeps no content, so nothing refers to state.

export const responsesTask = 'openai.responses/1';

type Item = Extract<ResponsesRequest['input'], unknown[]>[number];

function textOf(content: unknown, path: ParamPath): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) throw invalidParam(path, 'must be a string or an array of content parts');
  return content
    .map((part: { type?: unknown; text?: unknown }, j) => {
      const textual = part?.type === 'input_text' || part?.type === 'output_text';
      if (!textual || typeof part.text !== 'string')
        throw invalidParam(
          [...path, j],
          `content parts of type '${String(part?.type)}' are not supported: Valve takes text only`,
        );
      return part.text;
    })
    .join('\n');
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

export function responsesToReason(request: ResponsesRequest): DoorRequest {
  stateless(request);
  const instructions: InstructionPart[] = [];
  if (request.instructions) instructions.push({ text: request.instructions, param: ['instructions'] });
  const turns: ConversationTurn[] = [];
  // The input item each turn starts at, for errors that name a turn (-1: the input is one string).
  const sources: number[] = [];
  const toolNames = new Map<string, string>();
  const items: Item[] =
    typeof request.input === 'string' ? [{ role: 'user', content: request.input }] : request.input;
  items.forEach((item, i) => {
    const at: ParamPath = typeof request.input === 'string' ? ['input'] : ['input', i];
    const type = item.type ?? 'message';
    if (type === 'message') {
      const content = textOf(
        (item as Record<string, unknown>).content,
        typeof request.input === 'string' ? at : [...at, 'content'],
      );
      if (item.role === 'system' || item.role === 'developer')
        instructions.push({ text: content, param: [...at, 'content'] });
      else if (item.role === 'user' || item.role === 'assistant') {
        sources.push(typeof request.input === 'string' ? -1 : i);
        turns.push({ role: item.role, content });
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
      if (last?.role === 'assistant' && last.toolCalls !== undefined) last.toolCalls.push(call);
      else {
        sources.push(i);
        turns.push({ role: 'assistant', toolCalls: [call] });
      }
    } else if (type === 'function_call_output') {
      const id = stringField(item, 'call_id', at);
      const name = toolNames.get(id);
      if (name === undefined)
        throw invalidParam([...at, 'call_id'], 'answers no function_call earlier in input');
      const output = (item as Record<string, unknown>).output;
      sources.push(i);
      turns.push({ role: 'tool', toolCallId: id, name, content: textOf(output, [...at, 'output']) });
    } else {
      throw invalidParam([...at, 'type'], `input items of type '${type}' are not supported`);
    }
  });
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
    output:
      format?.type === 'json_schema'
        ? { format: 'json', schema: format.schema }
        : format?.type === 'json_object'
          ? { format: 'json', schema: { type: 'object' } }
          : undefined,
    maxOutputTokens: request.max_output_tokens ?? undefined,
    valve: request.valve,
  });
  return { request: reason, instructions, turnSources: sources };
}
