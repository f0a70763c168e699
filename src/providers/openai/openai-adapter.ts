import type { CallOptions } from '../../model/model-adapter';
import type { CallContext } from '../shared/fail';
import { httpAdapter } from '../shared/http-adapter';
import { notSent, sendRequest } from '../shared/send-request';
import { withSupportedSettings } from '../shared/supported-settings';
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

/** Chat Completions, JSON and SSE: OpenAI itself and every compatible server through `baseUrl`. */
export const openaiAdapter = withSupportedSettings(
  httpAdapter({
    kind: 'openai',
    send: (request, options, stream, context) =>
      sendRequest({
        context,
        url: endpoint(options),
        headers: { ...authHeaders(options, context), ...(stream && { accept: 'text/event-stream' }) },
        body: toOpenAIBody(request, options, stream),
        options,
        classify: classifyOpenAIFailure,
      }),
    parse: parseOpenAIResponse,
    streamParts: (events, request, context) => openaiStreamParts(events, context, request),
    toWireBody: (request, options) => toOpenAIBody(request, options, false),
  }),
  { temperature: true, top_p: true, stop: true, seed: true, parallel_tool_calls: true },
);
