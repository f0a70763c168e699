import type { ReasonRequest } from '../contracts/reason-request';
import type { ReasonOutput, ToolCall } from '../contracts/reason-response';
import { ApiError } from '../errors';
import { detectLeak } from '../prompt/detect-leak';
import type { RenderedPrompt } from '../prompt/render-prompt';
import type { ModelResponse, ModelWarning } from '../providers/types';

/** What buildOutput needs of the rendered prompt: its secrets and whether untrusted context was in it. */
export type PromptFacts = Pick<RenderedPrompt, 'nonce' | 'canary' | 'tainted'>;

/**
 * The caller-facing output and tool calls of a model's answer, with the checks around the prompt
 * (trust.md): a call to a tool the request did not list is dropped with a `tool_call.rejected` warning,
 * every call is `tainted` when untrusted context was present, and an output carrying the canary or the
 * nonce gets a `prompt.leak_suspected` warning.
 */
export function buildOutput(
  request: ReasonRequest,
  response: ModelResponse,
  prompt: PromptFacts,
): { output: ReasonOutput; toolCalls: ToolCall[]; warnings: ModelWarning[] } {
  const { tainted } = prompt;
  const listed = new Set((request.tools ?? []).map((tool) => tool.name));
  const warnings: ModelWarning[] = [];
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
      if (listed.has(block.name)) {
        toolCalls.push({ id: block.id, name: block.name, arguments: block.args, tainted });
      } else {
        warnings.push({
          code: 'tool_call.rejected',
          message: `Dropped a call to ${JSON.stringify(block.name.slice(0, 64))}, which the request did not list in tools.`,
        });
      }
    }
  }
  const emitted = [text, ...toolCalls.map((call) => JSON.stringify(call.arguments))];
  if (hasValue) emitted.push(JSON.stringify(value) ?? '');
  warnings.push(...detectLeak(emitted, prompt));
  if (request.output?.format !== 'json') return { output: { format: 'text', text }, toolCalls, warnings };
  if (!hasValue && toolCalls.length === 0) {
    try {
      value = JSON.parse(text);
    } catch {
      throw new ApiError('model.invalid_response', 'The model did not answer with JSON.', {
        details: { kind: 'invalid_response' },
      });
    }
  }
  return {
    output: { format: 'json', value: hasValue || toolCalls.length === 0 ? value : null },
    toolCalls,
    warnings,
  };
}
