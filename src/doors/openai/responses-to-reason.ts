import type { Capability } from '../../contracts/reason-request';
import { buildReasonRequest, reasoningOfEffort } from '../build-reason-request';
import { invalidParam } from '../invalid-param';
import { checkDoorMedia } from '../media-parts';
import type { DoorRequest } from '../pipeline-request';
import type { ApprovalAnswer } from './approval-responses';
import { readResponsesInput } from './responses-input';
import type { ResponsesRequest } from './responses-request';

// Responses API → Reason request, mapping version `openai.responses/1`: `instructions` and system or
// developer items → instructions; user and assistant messages → conversation; `function_call` and
// `function_call_output` items → tool turns. Valve keeps no content, so nothing refers to state, except
// `mcp_approval_response` items, which name a call Valve held for a reviewer (its own
// `mcp_approval_request` items, sent back, are left out: the door puts a rejected call back itself).

export const responsesTask = 'openai.responses/1';

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
  const { instructions, turns, sources, approvalAnswers, media } = readResponsesInput(request);
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
