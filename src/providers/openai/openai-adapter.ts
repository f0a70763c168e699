import type { CallContext } from '../shared/fail';
import { unlessFiltered } from '../shared/filtered';
import { guardStream } from '../shared/guard-stream';
import { readSse } from '../shared/read-sse';
import { notSent, readJson, sendRequest } from '../shared/send-request';
import { withSupportedSettings } from '../shared/supported-settings';
import type { CallOptions, ModelAdapter, ModelRequest, StreamPart } from '../types';
import { toOpenAIBody } from './convert-request';
import { classifyOpenAIFailure } from './parse-error';
import { parseOpenAIResponse } from './parse-response';
import { openaiStreamParts } from './stream-parts';

const defaultBaseUrl = 'https://api.openai.com/v1';

function endpoint(options: CallOptions): string {
  return `${(options.baseUrl ?? defaultBaseUrl).replace(/\/+$/, '')}/chat/completions`;
}

function authHeaders(options: CallOptions, context: CallContext): Record<string, string> {
  if (options.apiKey) return { authorization: `Bearer ${options.apiKey}` };
  // A self-hosted compatible server (Ollama, vLLM) may need no key; OpenAI itself always does.
  if (options.baseUrl === undefined) throw notSent(context, 'auth', 'No API key is configured for OpenAI.');
  return {};
}

async function post(request: ModelRequest, options: CallOptions, stream: boolean): Promise<Response> {
  const context = { provider: 'openai', model: options.model };
  return sendRequest({
    context,
    url: endpoint(options),
    headers: { ...authHeaders(options, context), ...(stream && { accept: 'text/event-stream' }) },
    body: toOpenAIBody(request, options, stream),
    options,
    classify: classifyOpenAIFailure,
  });
}

/** Chat Completions, JSON and SSE: OpenAI itself and every compatible server through `baseUrl`. */
export const openaiAdapter: ModelAdapter = withSupportedSettings(
  {
    kind: 'openai',
    async generate(request, options) {
      const context = { provider: 'openai', model: options.model };
      const response = await post(request, options, false);
      return unlessFiltered(
        parseOpenAIResponse(await readJson(response, context, options), request, context),
        context,
      );
    },
    async *stream(request, options): AsyncIterable<StreamPart> {
      const context = { provider: 'openai', model: options.model };
      const response = await post(request, options, true);
      const body = response.body ?? new ReadableStream<Uint8Array>({ start: (c) => c.close() });
      const events = readSse(body, options.signal, options.idleTimeoutMs);
      yield* guardStream(openaiStreamParts(events, context, request), context, options);
    },
    toWireBody(request, options) {
      return toOpenAIBody(request, options, false);
    },
  },
  { temperature: true, top_p: true, stop: true, seed: true, parallel_tool_calls: true },
);
