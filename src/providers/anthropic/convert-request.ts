import { isFailedToolResult, type MediaBlock, type MediaSource, type Message } from '../../model/message';
import type { CallOptions } from '../../model/model-adapter';
import type { ModelRequest, ReasoningSetting, ToolChoice } from '../../model/model-request';
import type { CallContext } from '../shared/fail';
import { checkMediaPlacement, mediaSegments } from '../shared/media';
import { jsonToolName, messageText, systemText, toolCallsOf } from '../shared/message-text';

export const defaultMaxTokens = 4096;

type WireBlock = Record<string, unknown>;
interface WireMessage {
  role: 'user' | 'assistant';
  content: WireBlock[];
}

/**
 * An image or document block's `source`: bytes with their media type, a URL Anthropic fetches, or a
 * Files API id (https://platform.claude.com/docs/en/build-with-claude/vision,
 * .../pdf-support, .../files; anthropics/anthropic-sdk-python src/anthropic/types/base64_image_source_param.py,
 * url_image_source_param.py, beta/beta_file_image_source_param.py and their PDF and document twins).
 */
function wireSource(source: MediaSource, mediaType: string): WireBlock {
  if (source.kind === 'base64') return { type: 'base64', media_type: mediaType, data: source.data };
  if (source.kind === 'url') return { type: 'url', url: source.url };
  return { type: 'file', file_id: source.file_id };
}

/**
 * An image as an `image` block, a PDF as a `document` block (Anthropic reads no audio); a document
 * asks to be cited when the request wants citations (Anthropic takes them on all documents or none).
 */
function mediaBlock(block: MediaBlock, citations: boolean): WireBlock {
  const type = block.type === 'image' ? 'image' : 'document';
  return {
    type,
    source: wireSource(block.source, block.mime_type),
    ...(citations && type === 'document' && { citations: { enabled: true } }),
  };
}

function blocksOf(message: Message, context: CallContext, citations: boolean): WireBlock[] {
  const segments = mediaSegments(message, 'anthropic', context);
  if (segments) {
    return segments.map((segment) =>
      segment.type === 'text' ? { type: 'text', text: segment.text } : mediaBlock(segment.media, citations),
    );
  }
  const text = messageText(message);
  if (message.role === 'tool') {
    const result = { type: 'tool_result', tool_use_id: message.call_id ?? '', content: text };
    // Anthropic's own flag for a call that failed or was rejected.
    return [isFailedToolResult(message) ? { ...result, is_error: true } : result];
  }
  // A turn's thinking goes back first and unchanged, as Claude gave it: its signature covers the text.
  const blocks: WireBlock[] = message.role === 'assistant' ? thinkingBlocksOf(message) : [];
  if (text !== '') blocks.push({ type: 'text', text });
  for (const call of toolCallsOf(message)) {
    blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: call.args });
  }
  return blocks;
}

/**
 * An assistant turn's thinking as Claude's `thinking` (text and signature) and `redacted_thinking`
 * blocks (https://platform.claude.com/docs/en/build-with-claude/extended-thinking, "Preserving thinking
 * blocks"). Unsigned text (a summary, another provider's thinking) is never sent: Claude takes only
 * the blocks it signed.
 */
function thinkingBlocksOf(message: Message): WireBlock[] {
  return message.content.flatMap((block): WireBlock[] => {
    if (block.type !== 'reasoning') return [];
    if (block.redacted !== undefined) return [{ type: 'redacted_thinking', data: block.redacted }];
    if (block.signature === undefined || block.summary) return [];
    return [{ type: 'thinking', thinking: block.text ?? '', signature: block.signature }];
  });
}

/** A prompt-cache breakpoint: Anthropic's default 5-minute cache, the one the catalog's cacheWrite prices. */
const ephemeral = { type: 'ephemeral' } as const;

/**
 * The top-level `system`: the system text as one string, or, when a text block ends a cache
 * breakpoint, as text blocks that join (with nothing between them) to exactly that string, the marked
 * one ending with `cache_control` (https://platform.claude.com/docs/en/build-with-claude/prompt-caching:
 * the prefix is cached in the order tools, system, messages, up to and including the marked block).
 */
function systemOf(messages: Message[]): string | WireBlock[] | undefined {
  const text = systemText(messages);
  const marked = messages.some(
    (message) => message.role === 'system' && message.content.some((b) => b.type === 'text' && b.cache),
  );
  if (text === undefined || !marked) return text;
  const blocks: WireBlock[] = [];
  let pending = '';
  messages
    .filter((message) => message.role === 'system')
    .forEach((message, i) => {
      if (i > 0) pending += '\n\n';
      for (const block of message.content) {
        if (block.type === 'json') pending += JSON.stringify(block.value);
        if (block.type !== 'text') continue;
        pending += block.text;
        if (block.cache && pending !== '') {
          blocks.push({ type: 'text', text: pending, cache_control: ephemeral });
          pending = '';
        }
      }
    });
  if (pending !== '') blocks.push({ type: 'text', text: pending });
  return blocks;
}

/** Non-system turns, consecutive turns of one role merged (tool results travel in user turns). */
function toWireMessages(messages: Message[], context: CallContext, citations: boolean): WireMessage[] {
  const out: WireMessage[] = [];
  for (const message of messages) {
    if (message.role === 'system') continue;
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const blocks = blocksOf(message, context, citations);
    const last = out[out.length - 1];
    if (last && last.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  }
  return out;
}

/** Anthropic's forced tool needs an object schema; anything else is wrapped as `{ value }`. */
export function jsonToolSchema(schema: Record<string, unknown>): {
  schema: Record<string, unknown>;
  wrapped: boolean;
} {
  if (schema.type === 'object') return { schema, wrapped: false };
  return { schema: { type: 'object', properties: { value: schema }, required: ['value'] }, wrapped: true };
}

function toWireToolChoice(choice: ToolChoice, parallel: boolean | undefined): Record<string, unknown> {
  const base =
    typeof choice === 'object'
      ? { type: 'tool', name: choice.name }
      : { type: choice === 'required' ? 'any' : choice };
  return parallel === false && base.type !== 'none' ? { ...base, disable_parallel_tool_use: true } : base;
}

/**
 * The Messages body. Every system message goes to the top-level `system` field, the only trusted
 * channel; user and tool-result turns carry everything else. JSON output is a forced tool call.
 */
export function toAnthropicBody(
  request: ModelRequest,
  options: CallOptions,
  stream: boolean,
): Record<string, unknown> {
  const settings = request.settings ?? {};
  const context: CallContext = { provider: 'anthropic', model: options.model };
  checkMediaPlacement(request.messages, context);
  const system = systemOf(request.messages);
  const body: Record<string, unknown> = {
    model: options.model,
    max_tokens: settings.max_tokens ?? defaultMaxTokens,
    ...(system !== undefined && { system }),
    messages: toWireMessages(request.messages, context, request.citations === true),
  };
  if (settings.temperature !== undefined) body.temperature = settings.temperature;
  if (settings.top_p !== undefined) body.top_p = settings.top_p;
  if (settings.stop && settings.stop.length > 0) body.stop_sequences = settings.stop;
  Object.assign(body, anthropicThinkingOf(settings.reasoning));
  const tools: Record<string, unknown>[] = (request.tools ?? []).map((tool) => ({
    name: tool.name,
    ...(tool.description !== undefined && { description: tool.description }),
    input_schema: tool.input_schema,
    ...(tool.cache && { cache_control: ephemeral }),
  }));
  if (request.output) {
    tools.push({
      name: jsonToolName,
      description: 'Answer with the requested JSON value as this tool’s input.',
      input_schema: jsonToolSchema(request.output.schema).schema,
    });
  }
  if (tools.length > 0) body.tools = tools;
  if (request.output && tools.length === 1) body.tool_choice = { type: 'tool', name: jsonToolName };
  else if (request.output) body.tool_choice = { type: 'any' };
  else if (
    tools.length > 0 &&
    (request.tool_choice !== undefined || settings.parallel_tool_calls === false)
  ) {
    body.tool_choice = toWireToolChoice(request.tool_choice ?? 'auto', settings.parallel_tool_calls);
  }
  if (stream) body.stream = true;
  return body;
}

/**
 * Anthropic's thinking controls: a token budget is extended thinking, `thinking: { type: "enabled",
 * budget_tokens }` (at least 1,024 and under `max_tokens`, which the pipeline guarantees); an effort
 * level is `output_config.effort`, taken by the models that have it; off is `thinking: { type:
 * "disabled" }`. Both budget and effort count against `max_tokens`: thinking is billed as output.
 */
export function anthropicThinkingOf(reasoning: ReasoningSetting | undefined): Record<string, unknown> {
  if (reasoning === undefined) return {};
  if (reasoning.enabled === false) return { thinking: { type: 'disabled' } };
  if (reasoning.budget_tokens !== undefined) {
    return { thinking: { type: 'enabled', budget_tokens: reasoning.budget_tokens } };
  }
  if (reasoning.effort !== undefined) return { output_config: { effort: reasoning.effort } };
  return {};
}

/**
 * Whether the body forces a tool call (JSON output, `required` or a named tool): Anthropic refuses
 * extended thinking beside a forced tool choice.
 */
export function forcesToolCall(request: ModelRequest): boolean {
  const choice = request.tool_choice;
  return request.output !== undefined || choice === 'required' || typeof choice === 'object';
}
