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

/**
 * OpenAI's own reasoning models (o1, o3, o4-mini, the GPT-5 reasoning models) answer 400
 * `unsupported_value` to a temperature or top_p other than the default, so a model whose catalog entry
 * reasons gets neither from OpenAI itself. A compatible server reached through `baseUrl` decides for
 * itself (many take them and ignore them), so it gets them as sent.
 */
function takesSampling(_settings: unknown, options: CallOptions): boolean {
  return !(options.reasoning === true && options.baseUrl === undefined);
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
  {
    temperature: takesSampling,
    top_p: takesSampling,
    stop: true,
    seed: true,
    parallel_tool_calls: true,
    reasoning: true,
  },
);
