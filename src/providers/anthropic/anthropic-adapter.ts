import type { ModelRequest, Settings } from '../../model/model-request';
import { httpAdapter } from '../shared/http-adapter';
import { hasFileSource } from '../shared/media';
import { notSent, sendRequest } from '../shared/send-request';
import { withSupportedSettings } from '../shared/supported-settings';
import { forcesToolCall, toAnthropicBody } from './convert-request';
import { classifyAnthropicFailure } from './parse-error';
import { parseAnthropicResponse } from './parse-response';
import { anthropicStreamParts } from './stream-parts';

const defaultBaseUrl = 'https://api.anthropic.com/v1';
/** The API version header every Messages request carries (https://docs.anthropic.com/en/api/versioning). */
export const anthropicVersion = '2023-06-01';
/**
 * The beta a Messages request needs to name a Files API id in an image or document source
 * (https://platform.claude.com/docs/en/build-with-claude/files; anthropics/anthropic-sdk-python
 * src/anthropic/resources/beta/files.py sends the same value). Sent only when a file source is present.
 */
export const filesApiBeta = 'files-api-2025-04-14';

/** The Messages API, JSON and SSE. */
export const anthropicAdapter = withSupportedSettings(
  httpAdapter({
    kind: 'anthropic',
    send: (request, options, stream, context) => {
      if (!options.apiKey) throw notSent(context, 'auth', 'No API key is configured for Anthropic.');
      return sendRequest({
        context,
        url: `${(options.baseUrl ?? defaultBaseUrl).replace(/\/+$/, '')}/messages`,
        headers: {
          'x-api-key': options.apiKey,
          'anthropic-version': anthropicVersion,
          ...(hasFileSource(request.messages) && { 'anthropic-beta': filesApiBeta }),
          ...(stream && { accept: 'text/event-stream' }),
        },
        body: toAnthropicBody(request, options, stream),
        options,
        classify: classifyAnthropicFailure,
      });
    },
    parse: parseAnthropicResponse,
    streamParts: anthropicStreamParts,
    toWireBody: (request, options) => toAnthropicBody(request, options, false),
  }),
  {
    // Anthropic takes temperature in 0–1 only, not both temperature and top_p on current models, and no seed;
    // with extended thinking, neither temperature nor top_p.
    temperature: (settings, _options, request) =>
      (settings.temperature ?? 0) <= 1 && !thinks(settings, request),
    // top_p is dropped beside a temperature Anthropic takes, kept when that temperature is dropped.
    top_p: (settings, _options, request) =>
      (settings.temperature === undefined || settings.temperature > 1) && !thinks(settings, request),
    stop: true,
    seed: false,
    parallel_tool_calls: true,
    // Extended thinking is refused beside a forced tool call (JSON output is one here): the answer
    // keeps its meaning without thinking, so thinking is what gives way.
    reasoning: (settings, _options, request) =>
      settings.reasoning?.budget_tokens === undefined || !forcesToolCall(request),
  },
);

/** The call sends extended thinking: a budget, and no forced tool call to refuse it. */
function thinks(settings: Settings, request: ModelRequest): boolean {
  return settings.reasoning?.budget_tokens !== undefined && !forcesToolCall(request);
}
