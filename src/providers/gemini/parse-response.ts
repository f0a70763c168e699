import { parseJsonWithin } from '../../encoding/json-depth';
import type { ContentBlock } from '../../model/message';
import type { ModelRequest } from '../../model/model-request';
import type { ModelResponse, Usage } from '../../model/model-response';
import type { CallContext } from '../shared/fail';
import { fail } from '../shared/fail';
import { refusalSentence } from '../shared/filtered';
import { scrubProviderCode } from '../shared/scrub-message';
import { groundingAnnotations } from './grounding';
import { isGeminiRefusal, mapGeminiFinishReason } from './map-finish-reason';
import type { GeminiPart, GeminiResponse, GeminiUsage } from './wire-schemas';
import { geminiResponseSchema } from './wire-schemas';

/**
 * Gemini usage in Valve's terms. `promptTokenCount` includes cached content; thoughts are billed as
 * output but not counted in `candidatesTokenCount`, so output is candidates plus thoughts.
 */
export function mapGeminiUsage(usage: GeminiUsage | null | undefined): Usage {
  const thoughts = usage?.thoughtsTokenCount ?? 0;
  return {
    input_tokens: usage?.promptTokenCount ?? 0,
    output_tokens: (usage?.candidatesTokenCount ?? 0) + thoughts,
    cache_read_tokens: usage?.cachedContentTokenCount ?? 0,
    reasoning_tokens: thoughts,
  };
}

export function readGeminiBody(json: unknown, context: CallContext): GeminiResponse {
  const parsed = geminiResponseSchema.safeParse(json);
  if (!parsed.success) {
    throw fail(context, {
      kind: 'invalid_response',
      message: 'Gemini answered with a body of unknown shape.',
      dispatch: 'sent',
      emitted_deltas: false,
    });
  }
  return parsed.data;
}

/**
 * A part as content blocks: `thought` parts are reasoning (Gemini's summaries of its thinking),
 * function calls are tool calls, and a `thoughtSignature` (on a call, on text, or on an empty part of
 * its own) is reasoning state kept to be sent back: on a call, tied to it by `call_id`
 * (https://ai.google.dev/gemini-api/docs/thought-signatures).
 */
export function partBlocks(part: GeminiPart, index: number): ContentBlock[] {
  const signature = part.thoughtSignature || undefined;
  if (part.functionCall) {
    const args = part.functionCall.args;
    const id = part.functionCall.id ?? `call_${index}`;
    const call: ContentBlock = {
      type: 'tool_call',
      id,
      name: part.functionCall.name,
      args:
        typeof args === 'object' && args !== null && !Array.isArray(args)
          ? (args as Record<string, unknown>)
          : {},
    };
    return signature === undefined ? [call] : [{ type: 'reasoning', signature, call_id: id }, call];
  }
  const text = part.text ?? '';
  if (part.thought) {
    if (text === '' && signature === undefined) return [];
    return [
      { type: 'reasoning', summary: true, ...(text !== '' && { text }), ...(signature && { signature }) },
    ];
  }
  const blocks: ContentBlock[] = text === '' ? [] : [{ type: 'text', text }];
  if (signature !== undefined) blocks.push({ type: 'reasoning', signature });
  return blocks;
}

/** A generateContent JSON answer as a ModelResponse; JSON output text becomes a `json` block. */
export function parseGeminiResponse(
  json: unknown,
  request: ModelRequest,
  context: CallContext,
): ModelResponse {
  const body = readGeminiBody(json, context);
  const candidate = body.candidates?.[0];
  // A blocked prompt or a safety finish: Gemini declined, and says so only by its reason.
  const stopped = candidate?.finishReason;
  const declined = body.promptFeedback?.blockReason || (isGeminiRefusal(stopped) ? stopped : undefined);
  if (declined) {
    return {
      message: {
        role: 'assistant',
        content: [{ type: 'refusal', refusal: refusalSentence(context, declined) }],
      },
      usage: mapGeminiUsage(body.usageMetadata),
      finish_reason: 'content_filter',
      raw_finish_reason: declined,
      model: body.modelVersion ?? undefined,
    };
  }
  // A whole (non-streamed) answer always ends with a finishReason; one without is not an answer.
  if (!candidate?.finishReason) {
    throw fail(context, {
      kind: 'invalid_response',
      message: candidate
        ? 'Gemini answered without a finishReason; the answer may be incomplete.'
        : 'Gemini answered with no candidate and no block reason.',
      dispatch: 'sent',
      emitted_deltas: false,
    });
  }
  const parts = candidate?.content?.parts ?? [];
  const cited = groundingAnnotations(candidate?.groundingMetadata, (i) => parts[i]?.text);
  const blocks = parts.flatMap((part, index) =>
    partBlocks(part, index).map((block) => {
      const annotations = cited.get(index);
      return block.type === 'text' && annotations ? { ...block, annotations } : block;
    }),
  );
  const calledTools = blocks.some((block) => block.type === 'tool_call');
  const raw = candidate?.finishReason ?? undefined;
  const finish = mapGeminiFinishReason(raw, calledTools);
  let content = blocks;
  if (request.output && !calledTools && finish !== 'content_filter') {
    const text = blocks.map((block) => (block.type === 'text' ? block.text : '')).join('');
    try {
      content = [
        ...blocks.filter((block) => block.type === 'reasoning'),
        { type: 'json', value: parseJsonWithin(text) },
      ];
    } catch {
      throw fail(context, {
        kind: 'invalid_response',
        message: `Gemini was asked for JSON and answered with text that does not parse (finish ${scrubProviderCode(raw) ?? 'unknown'}).`,
        dispatch: 'sent',
        emitted_deltas: false,
      });
    }
  }
  return {
    message: { role: 'assistant', content },
    usage: mapGeminiUsage(body.usageMetadata),
    finish_reason: finish,
    raw_finish_reason: raw,
    model: body.modelVersion ?? undefined,
  };
}
