import type { ReasonRequest } from '../contracts/reason-request';
import type { Annotation, ReasonOutput, ToolCall } from '../contracts/reason-response';
import { parseJsonWithin } from '../encoding/json-depth';
import { ApiError } from '../errors';
import { type ModelResponse, type ModelWarning, refusalOf } from '../model/model-response';
import { detectLeak } from '../prompt/detect-leak';
import type { RenderedPrompt } from '../prompt/render-prompt';
import { reasonAnnotationsOf } from './annotations-of';
import type { ParsedJson } from './check-output';
import { checkToolCall, type InvalidToolCall } from './check-tool-call';

/** What buildOutput needs of the rendered prompt: its secrets and whether untrusted context was in it. */
export type PromptFacts = Pick<RenderedPrompt, 'nonce' | 'canary' | 'tainted'> &
  Partial<Pick<RenderedPrompt, 'documents'>>;

export interface BuiltOutput {
  output: ReasonOutput;
  toolCalls: ToolCall[];
  invalidToolCalls: InvalidToolCall[];
  /** `prompt.leak_suspected` when the output carries the canary or the nonce. */
  warnings: ModelWarning[];
}

/**
 * The caller-facing output and tool calls of a model's answer, with the checks around the prompt
 * (docs/trust.md): only listed tools with arguments valid against their inputSchema are handed over (the
 * rest become invalid calls), every call is `tainted` when untrusted context was present, and an
 * output carrying the canary or the nonce gets a `prompt.leak_suspected` warning.
 */
export function buildOutput(
  request: ReasonRequest,
  response: ModelResponse,
  prompt: PromptFacts,
  json?: ParsedJson,
): BuiltOutput {
  const { tainted } = prompt;
  const toolCalls: ToolCall[] = [];
  const invalidToolCalls: InvalidToolCall[] = [];
  let text = '';
  const annotations: Annotation[] = [];
  let value: unknown;
  let hasValue = false;
  for (const block of response.message.content) {
    if (block.type === 'text') {
      const span = { offset: text.length, length: block.text.length };
      annotations.push(...reasonAnnotationsOf(block.annotations ?? [], span, request, prompt.documents));
      text += block.text;
    } else if (block.type === 'json') {
      value = block.value;
      hasValue = true;
    } else if (block.type === 'tool_call' || block.type === 'invalid_tool_call') {
      // Listed tool, arguments a JSON object valid against its inputSchema, approval when tainted (check-tool-call).
      const check = checkToolCall(request, toolCallInput(block), tainted);
      if (check.ok) toolCalls.push(check.call);
      else invalidToolCalls.push(check.invalid);
    }
  }
  const refusal = refusalOf(response);
  const emitted = [text, ...toolCalls.map((call) => JSON.stringify(call.arguments))];
  if (hasValue) emitted.push(JSON.stringify(value) ?? '');
  if (refusal !== undefined) emitted.push(refusal);
  const warnings = detectLeak(emitted, prompt);
  // A refusal is the outcome whatever format was asked for: never text, never a JSON value to validate.
  if (refusal !== undefined)
    return { output: { format: 'refusal', refusal }, toolCalls, invalidToolCalls, warnings };
  if (request.output?.format !== 'json')
    return {
      // Present only when the model cited, so an answer without citations keeps its old shape.
      output: { format: 'text', text, ...(annotations.length > 0 && { annotations }) },
      toolCalls,
      invalidToolCalls,
      warnings,
    };
  if (!hasValue && toolCalls.length === 0 && json) value = json.value;
  else if (!hasValue && toolCalls.length === 0) {
    try {
      value = parseJsonWithin(text);
    } catch {
      throw new ApiError('model.invalid_response', 'The model did not answer with JSON.', {
        details: { kind: 'invalid_response' },
      });
    }
  }
  return {
    output: { format: 'json', value: hasValue || toolCalls.length === 0 ? value : null },
    toolCalls,
    invalidToolCalls,
    warnings,
  };
}

function toolCallInput(
  block: Extract<ModelResponse['message']['content'][number], { type: 'tool_call' | 'invalid_tool_call' }>,
) {
  return block.type === 'tool_call'
    ? { id: block.id, name: block.name, args: block.args, rawArgs: JSON.stringify(block.args) }
    : { id: block.id, name: block.name, rawArgs: block.raw_args };
}
