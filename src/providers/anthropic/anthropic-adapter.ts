import { unlessFiltered } from '../shared/filtered';
import { guardStream } from '../shared/guard-stream';
import { readSse } from '../shared/read-sse';
import { notSent, readJson, sendRequest } from '../shared/send-request';
import { withSupportedSettings } from '../shared/supported-settings';
import type { CallOptions, ModelAdapter, ModelRequest, StreamPart } from '../types';
import { toAnthropicBody } from './convert-request';
import { classifyAnthropicFailure } from './parse-error';
import { parseAnthropicResponse } from './parse-response';
import { anthropicStreamParts } from './stream-parts';

const defaultBaseUrl = 'https://api.anthropic.com/v1';
/** The API version header every Messages request carries (https://docs.anthropic.com/en/api/versioning). */
export const anthropicVersion = '2023-06-01';

async function post(request: ModelRequest, options: CallOptions, stream: boolean): Promise<Response> {
  const context = { provider: 'anthropic', model: options.model };
  if (!options.apiKey) throw notSent(context, 'auth', 'No API key is configured for Anthropic.');
  return sendRequest({
    context,
    url: `${(options.baseUrl ?? defaultBaseUrl).replace(/\/+$/, '')}/messages`,
    headers: {
      'x-api-key': options.apiKey,
      'anthropic-version': anthropicVersion,
      ...(stream && { accept: 'text/event-stream' }),
    },
    body: toAnthropicBody(request, options, stream),
    options,
    classify: classifyAnthropicFailure,
  });
}

/** The Messages API, JSON and SSE. */
export const anthropicAdapter: ModelAdapter = withSupportedSettings(
  {
    kind: 'anthropic',
    async generate(request, options) {
      const context = { provider: 'anthropic', model: options.model };
      const response = await post(request, options, false);
      return unlessFiltered(
        parseAnthropicResponse(await readJson(response, context, options), request, context),
        context,
      );
    },
    async *stream(request, options): AsyncIterable<StreamPart> {
      const context = { provider: 'anthropic', model: options.model };
      const response = await post(request, options, true);
      const body = response.body ?? new ReadableStream<Uint8Array>({ start: (c) => c.close() });
      const events = readSse(body, options.signal, options.idleTimeoutMs);
      yield* guardStream(anthropicStreamParts(events, request, context), context, options);
    },
    toWireBody(request, options) {
      return toAnthropicBody(request, options, false);
    },
  },
  {
    // Anthropic takes temperature in 0–1 only, not both temperature and top_p on current models, and no seed.
    temperature: (settings) => (settings.temperature ?? 0) <= 1,
    top_p: (settings) => settings.temperature === undefined,
    stop: true,
    seed: false,
    parallel_tool_calls: true,
  },
);
