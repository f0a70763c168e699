import type { ReasonRequest } from '../contracts/reason-request';
import { invalidParam } from './invalid-param';
import type { ExtReasonRequest } from './reason-request-ext';

// What today's pipeline takes of the derived request. Tool choice, parallel tool calls and sampling
// ride on the model request (run-pipeline.ts); the receipt commits to this request.

/**
 * The request as today's pipeline takes it. Tool turns need the agent loop of the extended Reason
 * request, which this pipeline does not run yet: they are a clear 400 instead of being flattened.
 */
export function pipelineRequestOf(request: ExtReasonRequest): ReasonRequest {
  const { toolChoice: _c, parallelToolCalls: _p, sampling: _s, conversation, ...rest } = request;
  if (conversation === undefined) return rest;
  const turns = conversation.map((turn, i) => {
    if (turn.role === 'tool' || 'toolCalls' in turn)
      throw invalidParam(
        ['messages'],
        `turn ${i} is a tool call or a tool result, which this Valve cannot run yet`,
      );
    return { role: turn.role, content: turn.content ?? '' };
  });
  return { ...rest, conversation: turns };
}
