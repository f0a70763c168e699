import type { Message } from '../../model/message';
import type { ModelRequest } from '../../model/model-request';
import { messageText, toolCallsOf } from '../shared/message-text';

function toWireMessage(message: Message): Record<string, unknown> {
  const text = messageText(message);
  if (message.role === 'tool') {
    return {
      role: 'tool',
      tool_call_id: message.call_id ?? '',
      ...(message.tool !== undefined && { name: message.tool }),
      content: text,
    };
  }
  const calls = message.role === 'assistant' ? toolCallsOf(message) : [];
  return {
    role: message.role,
    content: text,
    ...(calls.length > 0 && {
      tool_calls: calls.map((call) => ({
        id: call.id,
        type: 'function',
        function: { name: call.name, arguments: JSON.stringify(call.args) },
      })),
    }),
  };
}

/**
 * The inputs of `env.AI.run` for a text-generation model
 * (https://developers.cloudflare.com/workers-ai/models/, "messages" input). Roles map one to one, so
 * trusted content stays in `system` messages; JSON output is `response_format: json_schema`.
 */
export function toWorkersAiInputs(request: ModelRequest, stream: boolean): Record<string, unknown> {
  const settings = request.settings ?? {};
  const inputs: Record<string, unknown> = { messages: request.messages.map(toWireMessage) };
  if (settings.max_tokens !== undefined) inputs.max_tokens = settings.max_tokens;
  if (settings.temperature !== undefined) inputs.temperature = settings.temperature;
  if (settings.top_p !== undefined) inputs.top_p = settings.top_p;
  if (settings.seed !== undefined) inputs.seed = settings.seed;
  // The input has no tool_choice: `none` is kept by offering no tools (forced calls are not planned here).
  if (request.tools && request.tools.length > 0 && request.tool_choice !== 'none') {
    inputs.tools = request.tools.map((tool) => ({
      type: 'function',
      function: {
        name: tool.name,
        ...(tool.description !== undefined && { description: tool.description }),
        parameters: tool.input_schema,
      },
    }));
  }
  if (request.output) inputs.response_format = { type: 'json_schema', json_schema: request.output.schema };
  if (stream) inputs.stream = true;
  return inputs;
}
