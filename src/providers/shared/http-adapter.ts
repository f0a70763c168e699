import type { EventSourceMessage } from 'eventsource-parser';
import type { CallOptions, ModelAdapter } from '../../model/model-adapter';
import type { ModelRequest } from '../../model/model-request';
import type { ModelResponse, StreamPart } from '../../model/model-response';
import { type CallContext, withFields } from './fail';
import { unlessFiltered } from './filtered';
import { guardStream } from './guard-stream';
import { readSse } from './read-sse';
import { readJson } from './send-request';

/** What an HTTP provider adapter supplies; the skeleton around it is the same for every provider. */
export interface HttpAdapterSpec {
  kind: string;
  /** Sends one call (JSON, or SSE when `stream`), throwing a classified failure for a refusal. */
  send(request: ModelRequest, options: CallOptions, stream: boolean, context: CallContext): Promise<Response>;
  /** A whole JSON answer in the neutral model interface. */
  parse(body: unknown, request: ModelRequest, context: CallContext): ModelResponse;
  /** The provider's server-sent events as stream parts. */
  streamParts(
    events: AsyncIterable<EventSourceMessage>,
    request: ModelRequest,
    context: CallContext,
  ): AsyncIterable<StreamPart>;
  /** The JSON body `send` would post for a non-streaming call. */
  toWireBody(request: ModelRequest, options: CallOptions): unknown;
}

/**
 * A provider adapter over HTTP: JSON answers read whole and refused when content-filtered; streams
 * read as SSE within the idle limit and guarded (a filter finish, a cut, a missing terminator are
 * classified failures that say whether content was already streamed).
 */
export function httpAdapter(spec: HttpAdapterSpec): ModelAdapter {
  const contextOf = (options: CallOptions): CallContext => ({
    provider: spec.kind,
    model: options.model,
    ...(options.apiKey && { keys: [options.apiKey] }),
  });
  return {
    kind: spec.kind,
    async generate(request, options) {
      const context = contextOf(options);
      const response = await spec.send(request, options, false, context);
      const body = await readJson(response, context, options);
      let parsed: ModelResponse;
      try {
        parsed = spec.parse(body, request, context);
      } catch (error) {
        // The provider answered (and billed) with this status before Valve found it could not read it.
        throw withFields(error, { status: response.status });
      }
      return unlessFiltered(parsed, context);
    },
    async *stream(request, options): AsyncIterable<StreamPart> {
      const context = contextOf(options);
      const response = await spec.send(request, options, true, context);
      const body = response.body ?? new ReadableStream<Uint8Array>({ start: (c) => c.close() });
      const events = readSse(body, options.signal, options.idleTimeoutMs);
      yield* guardStream(spec.streamParts(events, request, context), context, options);
    },
    toWireBody: spec.toWireBody,
  };
}
