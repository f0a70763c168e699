import { isFailedToolResult, type MediaBlock, type Message } from '../../model/message';
import type { ModelRequest, ReasoningSetting, ToolChoice } from '../../model/model-request';
import type { CallContext } from '../shared/fail';
import { checkMediaPlacement, mediaSegments } from '../shared/media';
import { messageText, systemText, toolCallsOf } from '../shared/message-text';

interface WireContent {
  role: 'user' | 'model';
  parts: Record<string, unknown>[];
}

/** Gemini names MP3 `audio/mp3` (https://ai.google.dev/gemini-api/docs/audio, "Supported audio formats"). */
const geminiMimeTypes: Record<string, string> = { 'audio/mpeg': 'audio/mp3' };

/**
 * A media block as a Part: bytes as `inlineData`, a Files API URI or an https URL Gemini fetches as
 * `fileData` (https://ai.google.dev/api/caching#Part, Blob and FileData;
 * https://ai.google.dev/gemini-api/docs/file-input-methods).
 */
function mediaPart(block: MediaBlock): Record<string, unknown> {
  const mimeType = geminiMimeTypes[block.mime_type] ?? block.mime_type;
  const { source } = block;
  if (source.kind === 'base64') return { inlineData: { mimeType, data: source.data } };
  return { fileData: { mimeType, fileUri: source.kind === 'url' ? source.url : source.file_id } };
}

function partsOf(
  message: Message,
  callNames: Map<string, string>,
  context: CallContext,
  gemini3: boolean,
): Record<string, unknown>[] {
  const segments = mediaSegments(message, 'gemini', context);
  if (segments) {
    return segments.map((segment) =>
      segment.type === 'text' ? { text: segment.text } : mediaPart(segment.media),
    );
  }
  const text = messageText(message);
  if (message.role === 'tool') {
    const name = message.tool ?? callNames.get(message.call_id ?? '') ?? message.call_id ?? 'tool';
    // Gemini reads a failed call's outcome under `error`, a result under `output` or any other name.
    const response = isFailedToolResult(message) ? { error: text } : { content: text };
    return [{ functionResponse: { name, response } }];
  }
  const signatures = signaturesOf(message);
  const parts: Record<string, unknown>[] = [];
  if (text !== '') {
    parts.push({ text, ...(signatures.onText !== undefined && { thoughtSignature: signatures.onText }) });
  }
  for (const call of toolCallsOf(message)) {
    callNames.set(call.id, call.name);
    const signature = signatures.onCall.get(call.id);
    parts.push({
      functionCall: { name: call.name, args: call.args },
      ...(signature !== undefined && { thoughtSignature: signature }),
    });
  }
  if (gemini3 && message.role === 'assistant') signUnsignedStep(parts);
  return parts;
}

/**
 * The thought signatures an assistant turn carries back: each on the function call it came with, and
 * one that came with text (or alone) on the turn's text, exactly as Gemini gave them
 * (https://ai.google.dev/gemini-api/docs/thought-signatures). Thought summaries are not sent back.
 */
function signaturesOf(message: Message): { onCall: Map<string, string>; onText?: string } {
  const onCall = new Map<string, string>();
  let onText: string | undefined;
  for (const block of message.content) {
    if (block.type !== 'reasoning' || block.signature === undefined) continue;
    if (block.call_id !== undefined) onCall.set(block.call_id, block.signature);
    else onText ??= block.signature;
  }
  return { onCall, onText };
}

/**
 * Gemini's documented value for a function call whose signature is not there (a turn another model
 * made, or a history kept without it): Gemini 3 refuses a function-call step without a signature on
 * its first call, and validates no thinking it does not have.
 */
export const skipSignature = 'skip_thought_signature_validator';

function signUnsignedStep(parts: Record<string, unknown>[]): void {
  const calls = parts.filter((part) => part.functionCall !== undefined);
  const first = calls[0];
  if (first !== undefined && calls.every((part) => part.thoughtSignature === undefined)) {
    first.thoughtSignature = skipSignature;
  }
}

function toContents(messages: Message[], context: CallContext): WireContent[] {
  const gemini3 = /(^|\/)gemini-3/.test(context.model);
  const callNames = new Map<string, string>();
  const out: WireContent[] = [];
  for (const message of messages) {
    if (message.role === 'system') continue;
    const role = message.role === 'assistant' ? 'model' : 'user';
    const parts = partsOf(message, callNames, context, gemini3);
    const last = out[out.length - 1];
    if (last && last.role === role) last.parts.push(...parts);
    else out.push({ role, parts });
  }
  return out;
}

// responseSchema is an OpenAPI 3.0 subset: JSON Schema keywords it rejects are dropped.
const unsupported = new Set(['$schema', '$id', 'additionalProperties', '$defs', 'definitions', '$comment']);

export function toResponseSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toResponseSchema);
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key]) => !unsupported.has(key))
      .map(([key, value]) => [key, toResponseSchema(value)]),
  );
}

function toToolConfig(choice: ToolChoice): Record<string, unknown> {
  if (typeof choice === 'object')
    return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [choice.name] } };
  return { functionCallingConfig: { mode: choice === 'required' ? 'ANY' : choice.toUpperCase() } };
}

/**
 * The generateContent body. System messages go to `systemInstruction`, the trusted channel; user
 * and function-response turns carry everything else. JSON output uses `responseMimeType` and
 * `responseSchema`.
 */
export function toGeminiBody(request: ModelRequest, model: string): Record<string, unknown> {
  const settings = request.settings ?? {};
  const context: CallContext = { provider: 'gemini', model };
  checkMediaPlacement(request.messages, context);
  const system = systemText(request.messages);
  const generationConfig: Record<string, unknown> = {};
  if (settings.max_tokens !== undefined) generationConfig.maxOutputTokens = settings.max_tokens;
  if (settings.temperature !== undefined) generationConfig.temperature = settings.temperature;
  if (settings.top_p !== undefined) generationConfig.topP = settings.top_p;
  if (settings.stop && settings.stop.length > 0) generationConfig.stopSequences = settings.stop;
  if (settings.seed !== undefined) generationConfig.seed = settings.seed;
  const thinkingConfig = geminiThinkingOf(settings.reasoning);
  if (thinkingConfig !== undefined) generationConfig.thinkingConfig = thinkingConfig;
  if (request.output) {
    generationConfig.responseMimeType = 'application/json';
    generationConfig.responseSchema = toResponseSchema(request.output.schema);
  }
  const body: Record<string, unknown> = {
    ...(system !== undefined && { systemInstruction: { parts: [{ text: system }] } }),
    contents: toContents(request.messages, context),
  };
  if (request.tools && request.tools.length > 0) {
    body.tools = [
      {
        functionDeclarations: request.tools.map((tool) => ({
          name: tool.name,
          ...(tool.description !== undefined && { description: tool.description }),
          parameters: toResponseSchema(tool.input_schema),
        })),
      },
    ];
    if (request.tool_choice !== undefined) body.toolConfig = toToolConfig(request.tool_choice);
  }
  if (Object.keys(generationConfig).length > 0) body.generationConfig = generationConfig;
  return body;
}

/**
 * Gemini's `generationConfig.thinkingConfig`: `thinkingBudget` for the 2.5 models (0 turns thinking
 * off where the model allows it), `thinkingLevel` for Gemini 3 (never both: Gemini refuses that), and
 * `includeThoughts` when a summary of the thinking is asked for. Thoughts count against
 * `maxOutputTokens` and are billed as output.
 */
export function geminiThinkingOf(
  reasoning: ReasoningSetting | undefined,
): Record<string, unknown> | undefined {
  if (reasoning === undefined) return undefined;
  const config: Record<string, unknown> = {};
  if (reasoning.enabled === false) config.thinkingBudget = 0;
  else if (reasoning.budget_tokens !== undefined) config.thinkingBudget = reasoning.budget_tokens;
  else if (reasoning.effort !== undefined) config.thinkingLevel = reasoning.effort;
  if (reasoning.summary !== undefined && reasoning.enabled !== false) config.includeThoughts = true;
  return Object.keys(config).length > 0 ? config : undefined;
}
