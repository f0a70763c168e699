import type { MediaBlock, Message } from '../../model/message';
import type { ModelRequest } from '../../model/model-request';
import type { CallContext } from '../shared/fail';
import { checkMediaPlacement, dataUrl, mediaSegments, unsupportedMedia } from '../shared/media';
import { messageText, toolCallsOf } from '../shared/message-text';

/**
 * An image as the `image_url` content part of a vision model's `messages` input, its url a data URI:
 * "image uri with data (e.g. data:image/jpeg;base64,/9j/...). HTTP URL will not be accepted"
 * (the input schema of https://developers.cloudflare.com/workers-ai/models/llama-4-scout-17b-16e-instruct/).
 */
function mediaPart(block: MediaBlock, context: CallContext): Record<string, unknown> {
  if (block.type !== 'image' || block.source.kind !== 'base64') return unsupportedMedia(context, block);
  return { type: 'image_url', image_url: { url: dataUrl(block.mime_type, block.source.data) } };
}

function toWireMessage(message: Message, context: CallContext): Record<string, unknown> {
  const segments = mediaSegments(message, 'workers-ai', context);
  if (segments) {
    return {
      role: message.role,
      content: segments.map((segment) =>
        segment.type === 'text' ? { type: 'text', text: segment.text } : mediaPart(segment.media, context),
      ),
    };
  }
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
 * trusted content stays in `system` messages; JSON output is `response_format: json_schema`. A user
 * message with images is an array of `text` and `image_url` parts, in its order, as vision models take it.
 */
export function toWorkersAiInputs(
  request: ModelRequest,
  model: string,
  stream: boolean,
): Record<string, unknown> {
  const settings = request.settings ?? {};
  const context: CallContext = { provider: 'workers-ai', model };
  checkMediaPlacement(request.messages, context);
  const inputs: Record<string, unknown> = {
    messages: request.messages.map((message) => toWireMessage(message, context)),
  };
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
