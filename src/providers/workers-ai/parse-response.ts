import { z } from 'zod';
import { parseJsonWithin } from '../../encoding/json-depth';
import type { ContentBlock } from '../../model/message';
import type { ModelRequest } from '../../model/model-request';
import type { ModelResponse, Usage } from '../../model/model-response';
import { parseOpenAIResponse } from '../openai/parse-response';
import type { CallContext } from '../shared/fail';
import { fail, unreadableAnswer } from '../shared/fail';
import { parseToolArguments } from '../shared/message-text';

// The text-generation output of `env.AI.run` (https://developers.cloudflare.com/workers-ai/models/,
// "Output"): `response`, optional `tool_calls` and `usage`. Models that answer in the OpenAI shape
// (`choices`) are read by the OpenAI parser rather than a copy of it.
export const workersAiUsageSchema = z.looseObject({
  prompt_tokens: z.number().int().nullish(),
  completion_tokens: z.number().int().nullish(),
});

const outputSchema = z.looseObject({
  response: z.unknown().optional(),
  tool_calls: z
    .array(z.looseObject({ id: z.string().optional(), name: z.string(), arguments: z.unknown().optional() }))
    .nullish(),
  usage: workersAiUsageSchema.nullish(),
});

export function mapWorkersAiUsage(usage: z.infer<typeof workersAiUsageSchema> | null | undefined): Usage {
  return { input_tokens: usage?.prompt_tokens ?? 0, output_tokens: usage?.completion_tokens ?? 0 };
}

function toolBlock(
  call: { id?: string; name: string; arguments?: unknown },
  index: number,
  context: CallContext,
  usage: Usage,
): ContentBlock {
  const id = call.id ?? `call_${index}`;
  if (typeof call.arguments === 'string') {
    const args = parseToolArguments(call.arguments);
    if (!args.ok && args.tooDeep) throw unreadableAnswer(context, 'tool-call arguments', usage);
    return args.ok
      ? { type: 'tool_call', id, name: call.name, args: args.args }
      : { type: 'invalid_tool_call', id, name: call.name, raw_args: call.arguments, error: args.error };
  }
  const args = call.arguments;
  return {
    type: 'tool_call',
    id,
    name: call.name,
    args:
      typeof args === 'object' && args !== null && !Array.isArray(args)
        ? (args as Record<string, unknown>)
        : {},
  };
}

/**
 * A Workers AI answer as a ModelResponse. The binding reports no finish reason, so a complete answer
 * says `other` (raw undefined), never an invented `stop`, unless it called tools.
 */
export function parseWorkersAiOutput(
  output: unknown,
  request: ModelRequest,
  context: CallContext,
): ModelResponse {
  if (typeof output === 'object' && output !== null && 'choices' in output) {
    return parseOpenAIResponse(output, request, context);
  }
  const parsed = outputSchema.safeParse(output);
  if (!parsed.success) {
    throw fail(context, {
      kind: 'invalid_response',
      message: 'Workers AI answered with output of unknown shape.',
      dispatch: 'sent',
      emitted_deltas: false,
    });
  }
  const content: ContentBlock[] = [];
  const answer = parsed.data.response;
  if (request.output && answer !== undefined && answer !== null && answer !== '') {
    if (typeof answer === 'string') {
      try {
        content.push({ type: 'json', value: parseJsonWithin(answer) });
      } catch {
        throw fail(context, {
          kind: 'invalid_response',
          message: 'Workers AI was asked for JSON and answered with text that does not parse.',
          dispatch: 'sent',
          emitted_deltas: false,
        });
      }
    } else content.push({ type: 'json', value: answer });
  } else if (typeof answer === 'string' && answer !== '') content.push({ type: 'text', text: answer });
  const usage = mapWorkersAiUsage(parsed.data.usage);
  (parsed.data.tool_calls ?? []).forEach((call, index) => {
    content.push(toolBlock(call, index, context, usage));
  });
  const calledTools = (parsed.data.tool_calls ?? []).length > 0;
  return {
    message: { role: 'assistant', content },
    usage,
    finish_reason: calledTools ? 'tool_calls' : 'other',
    model: context.model,
  };
}
