import type { MediaBlock, Message } from '../../model/message';
import type { CallOptions } from '../../model/model-adapter';
import type { ModelRequest, ReasoningSetting, ToolChoice } from '../../model/model-request';
import type { CallContext } from '../shared/fail';
import {
  type ContentSegment,
  checkMediaPlacement,
  dataUrl,
  mediaSegments,
  unsupportedMedia,
} from '../shared/media';
import { jsonToolName, messageText, toolCallsOf } from '../shared/message-text';

type WireMessage = Record<string, unknown>;

/** The name a PDF is given when its part has none: Chat Completions wants one beside `file_data`. */
export const defaultPdfName = 'document.pdf';

const audioFormats: Record<string, string> = { 'audio/wav': 'wav', 'audio/mpeg': 'mp3' };

/**
 * A media block as a Chat Completions content part (openai/openai-python
 * src/openai/types/chat/chat_completion_content_part_param.py and its image and input_audio parts;
 * https://developers.openai.com/api/docs/guides/images-vision, .../guides/audio, .../guides/file-inputs).
 * Which sources reach here is media-sources' table, checked in mediaSegments.
 */
function mediaPart(block: MediaBlock, context: CallContext): Record<string, unknown> {
  const { source } = block;
  if (block.type === 'image') {
    if (source.kind === 'url') return { type: 'image_url', image_url: { url: source.url } };
    if (source.kind === 'base64') {
      return { type: 'image_url', image_url: { url: dataUrl(block.mime_type, source.data) } };
    }
  } else if (block.type === 'audio') {
    const format = audioFormats[block.mime_type];
    if (source.kind === 'base64' && format) {
      return { type: 'input_audio', input_audio: { data: source.data, format } };
    }
  } else if (source.kind === 'file_id') {
    return { type: 'file', file: { file_id: source.file_id } };
  } else if (source.kind === 'base64') {
    return {
      type: 'file',
      file: { filename: block.filename ?? defaultPdfName, file_data: dataUrl(block.mime_type, source.data) },
    };
  }
  return unsupportedMedia(context, block);
}

function toWirePart(segment: ContentSegment, context: CallContext): Record<string, unknown> {
  return segment.type === 'text' ? { type: 'text', text: segment.text } : mediaPart(segment.media, context);
}

function toWireMessage(message: Message, context: CallContext): WireMessage {
  const text = messageText(message);
  switch (message.role) {
    case 'system':
      return { role: 'system', content: text };
    case 'user': {
      // A message with media is an array of parts in its order; one without stays a string.
      const segments = mediaSegments(message, 'openai', context);
      return {
        role: 'user',
        content: segments ? segments.map((segment) => toWirePart(segment, context)) : text,
      };
    }
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
  const context: CallContext = { provider: 'openai', model: options.model };
  checkMediaPlacement(request.messages, context);
  const body: Record<string, unknown> = {
    model: options.model,
    messages: request.messages.map((message) => toWireMessage(message, context)),
  };
  if (settings.max_tokens !== undefined) {
    body[options.baseUrl === undefined ? 'max_completion_tokens' : 'max_tokens'] = settings.max_tokens;
  }
  if (settings.temperature !== undefined) body.temperature = settings.temperature;
  if (settings.top_p !== undefined) body.top_p = settings.top_p;
  if (settings.stop && settings.stop.length > 0) body.stop = settings.stop;
  if (settings.seed !== undefined) body.seed = settings.seed;
  const effort = reasoningEffortOf(settings.reasoning);
  if (effort !== undefined) body.reasoning_effort = effort;
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

/**
 * Chat Completions' `reasoning_effort` (`minimal`, `low`, `medium`, `high`; `none` turns thinking off on
 * the models that allow it). Chat Completions takes no token budget and no summary.
 */
function reasoningEffortOf(reasoning: ReasoningSetting | undefined): string | undefined {
  if (reasoning === undefined) return undefined;
  if (reasoning.enabled === false) return 'none';
  return reasoning.effort;
}
