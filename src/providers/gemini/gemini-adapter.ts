import { httpAdapter } from '../shared/http-adapter';
import { notSent, sendRequest } from '../shared/send-request';
import { withSupportedSettings } from '../shared/supported-settings';
import { toGeminiBody } from './convert-request';
import { classifyGeminiFailure } from './parse-error';
import { parseGeminiResponse } from './parse-response';
import { geminiStreamParts } from './stream-parts';

const defaultBaseUrl = 'https://generativelanguage.googleapis.com/v1beta';

/** Gemini's generateContent and streamGenerateContent (SSE). */
export const geminiAdapter = withSupportedSettings(
  httpAdapter({
    kind: 'gemini',
    send: (request, options, stream, context) => {
      if (!options.apiKey) throw notSent(context, 'auth', 'No API key is configured for Gemini.');
      const base = (options.baseUrl ?? defaultBaseUrl).replace(/\/+$/, '');
      const method = stream ? 'streamGenerateContent?alt=sse' : 'generateContent';
      return sendRequest({
        context,
        url: `${base}/models/${encodeURIComponent(options.model)}:${method}`,
        headers: { 'x-goog-api-key': options.apiKey, ...(stream && { accept: 'text/event-stream' }) },
        body: toGeminiBody(request, options.model),
        options,
        classify: classifyGeminiFailure,
      });
    },
    parse: parseGeminiResponse,
    streamParts: (events, _request, context) => geminiStreamParts(events, context),
    toWireBody: (request, options) => toGeminiBody(request, options.model),
  }),
  {
    // Gemini has no switch for parallel function calls.
    temperature: true,
    top_p: true,
    stop: true,
    seed: true,
    parallel_tool_calls: false,
    reasoning: true,
  },
);
