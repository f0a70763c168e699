import { unlessFiltered } from '../shared/filtered';
import { guardStream } from '../shared/guard-stream';
import { readSse } from '../shared/read-sse';
import { notSent, readJson, sendRequest } from '../shared/send-request';
import { withSupportedSettings } from '../shared/supported-settings';
import type { CallOptions, ModelAdapter, ModelRequest, StreamPart } from '../types';
import { toGeminiBody } from './convert-request';
import { classifyGeminiFailure } from './parse-error';
import { parseGeminiResponse } from './parse-response';
import { geminiStreamParts } from './stream-parts';

const defaultBaseUrl = 'https://generativelanguage.googleapis.com/v1beta';

async function post(request: ModelRequest, options: CallOptions, stream: boolean): Promise<Response> {
  const context = { provider: 'gemini', model: options.model };
  if (!options.apiKey) throw notSent(context, 'auth', 'No API key is configured for Gemini.');
  const base = (options.baseUrl ?? defaultBaseUrl).replace(/\/+$/, '');
  const method = stream ? 'streamGenerateContent?alt=sse' : 'generateContent';
  return sendRequest({
    context,
    url: `${base}/models/${encodeURIComponent(options.model)}:${method}`,
    headers: { 'x-goog-api-key': options.apiKey, ...(stream && { accept: 'text/event-stream' }) },
    body: toGeminiBody(request),
    options,
    classify: classifyGeminiFailure,
  });
}

/** Gemini's generateContent and streamGenerateContent (SSE). */
export const geminiAdapter: ModelAdapter = withSupportedSettings(
  {
    kind: 'gemini',
    async generate(request, options) {
      const context = { provider: 'gemini', model: options.model };
      const response = await post(request, options, false);
      return unlessFiltered(
        parseGeminiResponse(await readJson(response, context, options), request, context),
        context,
      );
    },
    async *stream(request, options): AsyncIterable<StreamPart> {
      const context = { provider: 'gemini', model: options.model };
      const response = await post(request, options, true);
      const body = response.body ?? new ReadableStream<Uint8Array>({ start: (c) => c.close() });
      const events = readSse(body, options.signal, options.idleTimeoutMs);
      yield* guardStream(geminiStreamParts(events, context), context, options);
    },
    toWireBody(request) {
      return toGeminiBody(request);
    },
  },
  {
    // Gemini has no switch for parallel function calls.
    temperature: true,
    top_p: true,
    stop: true,
    seed: true,
    parallel_tool_calls: false,
  },
);
