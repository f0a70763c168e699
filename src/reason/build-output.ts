import type { ReasonRequest } from '../contracts/reason-request';
import type { ReasonOutput, ToolCall } from '../contracts/reason-response';
import { ApiError } from '../errors';
import type { ModelResponse } from '../providers/types';

/** The caller-facing output and tool calls of a model's answer. */
export function buildOutput(
  request: ReasonRequest,
  response: ModelResponse,
  tainted: boolean,
): { output: ReasonOutput; toolCalls: ToolCall[] } {
  const toolCalls: ToolCall[] = [];
  let text = '';
  let value: unknown;
  let hasValue = false;
  for (const block of response.message.content) {
    if (block.type === 'text') text += block.text;
    else if (block.type === 'json') {
      value = block.value;
      hasValue = true;
    } else if (block.type === 'tool_call') {
      toolCalls.push({ id: block.id, name: block.name, arguments: block.args, tainted });
    }
  }
  if (request.output?.format !== 'json') return { output: { format: 'text', text }, toolCalls };
  if (!hasValue && toolCalls.length === 0) {
    try {
      value = JSON.parse(text);
    } catch {
      throw new ApiError('model.invalid_response', 'The model did not answer with JSON.', {
        details: { kind: 'invalid_response' },
      });
    }
  }
  return { output: { format: 'json', value: hasValue || toolCalls.length === 0 ? value : null }, toolCalls };
}
