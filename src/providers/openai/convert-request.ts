import type { Message } from '../../model/message';
import type { CallOptions } from '../../model/model-adapter';
import type { ModelRequest, ToolChoice } from '../../model/model-request';
import { jsonToolName, messageText, toolCallsOf } from '../shared/message-text';

type WireMessage = Record<string, unknown>;

function toWireMessage(message: Message): WireMessage {
  const text = messageText(message);
  switch (message.role) {
    case 'system':
      return { role: 'system', content: text };
    case 'user':
      return { role: 'user', content: text };
    case 'tool':
      return { role: 'tool', tool_call_id: message.call_id ?? '', content: text };
    case 'assistant': {
      const calls = toolCallsOf(message);
      return {
        role: 'assistant',
        content: text === '' && calls.length > 0 ? null : text,
        ...(calls.length > 0 && {
          tool_calls: calls.map((call) => ({
            id: call.id,
            type: 'function',
            function: { name: call.name, arguments: JSON.stringify(call.args) },
          })),
        }),
      };
    }
  }
}

function toWireToolChoice(choice: ToolChoice): unknown {
  return typeof choice === 'string' ? choice : { type: 'function', function: { name: choice.name } };
}

/**
 * The Chat Completions body. Roles map one to one, so trusted content (always in `system` messages)
 * stays in the system channel and untrusted content in user or tool messages. OpenAI itself takes
 * `max_completion_tokens`; compatible servers reached through `baseUrl` take `max_tokens`.
 */
export function toOpenAIBody(
  request: ModelRequest,
  options: CallOptions,
  stream: boolean,
): Record<string, unknown> {
  const settings = request.settings ?? {};
  const body: Record<string, unknown> = {
    model: options.model,
    messages: request.messages.map(toWireMessage),
  };
  if (settings.max_tokens !== undefined) {
    body[options.baseUrl === undefined ? 'max_completion_tokens' : 'max_tokens'] = settings.max_tokens;
  }
  if (settings.temperature !== undefined) body.temperature = settings.temperature;
  if (settings.top_p !== undefined) body.top_p = settings.top_p;
  if (settings.stop && settings.stop.length > 0) body.stop = settings.stop;
  if (settings.seed !== undefined) body.seed = settings.seed;
  if (request.tools && request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({
      type: 'function',
      function: {
        name: tool.name,
        ...(tool.description !== undefined && { description: tool.description }),
        parameters: tool.input_schema,
      },
    }));
    if (request.tool_choice !== undefined) body.tool_choice = toWireToolChoice(request.tool_choice);
    if (settings.parallel_tool_calls !== undefined) body.parallel_tool_calls = settings.parallel_tool_calls;
  }
  if (request.output?.strategy === 'tool') {
    // A server without `json_schema` (catalog `json: "tool"`): the answer is a forced function call.
    const tools = (body.tools as unknown[] | undefined) ?? [];
    body.tools = [
      ...tools,
      {
        type: 'function',
        function: {
          name: jsonToolName,
          description: 'Answer with the JSON value.',
          parameters: request.output.schema,
        },
      },
    ];
    if (tools.length === 0) body.tool_choice = { type: 'function', function: { name: jsonToolName } };
  } else if (request.output) {
    body.response_format = {
      type: 'json_schema',
      json_schema: { name: 'output', schema: request.output.schema, strict: true },
    };
  }
  if (stream) {
    body.stream = true;
    body.stream_options = { include_usage: true };
  }
  return body;
}
