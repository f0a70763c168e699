import type { CallOptions, ModelAdapter, WorkersAiBinding } from '../../model/model-adapter';
import type { ModelRequest } from '../../model/model-request';
import type { StreamPart } from '../../model/model-response';
import { type CallContext, fail, providerFailure } from '../shared/fail';
import { guardStream } from '../shared/guard-stream';
import { readSse } from '../shared/read-sse';
import { notSent, transportFailure } from '../shared/send-request';
import { withSupportedSettings } from '../shared/supported-settings';
import { withinIdle } from '../shared/timeouts';
import { toWorkersAiInputs } from './convert-request';
import { classifyWorkersAiError } from './parse-error';
import { parseWorkersAiOutput } from './parse-response';
import { workersAiStreamParts } from './stream-parts';

function bindingOf(options: CallOptions, context: CallContext): WorkersAiBinding {
  if (!options.ai)
    throw notSent(context, 'not_found', 'This worker has no Workers AI binding (`[ai] binding = "AI"`).');
  return options.ai;
}

async function run(request: ModelRequest, options: CallOptions, stream: boolean): Promise<unknown> {
  const context = { provider: 'workers-ai', model: options.model };
  const ai = bindingOf(options, context);
  // Built before the call, so that a refusal of the request (media it cannot carry) is not sent.
  const inputs = toWorkersAiInputs(request, options.model, stream);
  try {
    return await withinIdle(ai.run(options.model, inputs), options.signal, options.idleTimeoutMs);
  } catch (error) {
    if (options.signal.aborted || (error instanceof Error && error.name === 'IdleTimeoutError')) {
      throw transportFailure(context, error, options.signal, 'sent');
    }
    throw providerFailure(context, {
      ...classifyWorkersAiError(error),
      dispatch: 'sent',
      emitted_deltas: false,
    });
  }
}

/** Workers AI through the `AI` binding, only where the worker has one. */
export const workersAiAdapter: ModelAdapter = withSupportedSettings(
  {
    kind: 'workers-ai',
    async generate(request, options) {
      const context = { provider: 'workers-ai', model: options.model };
      return parseWorkersAiOutput(await run(request, options, false), request, context);
    },
    async *stream(request, options): AsyncIterable<StreamPart> {
      const context = { provider: 'workers-ai', model: options.model };
      const output = await run(request, options, true);
      if (!(output instanceof ReadableStream)) {
        throw fail(context, {
          kind: 'invalid_response',
          message: 'Workers AI did not return a stream.',
          dispatch: 'sent',
        });
      }
      const events = readSse(output as ReadableStream<Uint8Array>, options.signal, options.idleTimeoutMs);
      yield* guardStream(workersAiStreamParts(events, context), context, options);
    },
    toWireBody(request, options) {
      return toWorkersAiInputs(request, options.model, false);
    },
  },
  {
    // The text-generation input has no stop sequences and no parallel switch; its seed starts at 1.
    temperature: true,
    top_p: true,
    stop: false,
    seed: (settings) => (settings.seed ?? 1) >= 1,
    parallel_tool_calls: false,
    // Valve sends Workers AI no thinking control: none of its catalog models takes one.
    reasoning: false,
  },
);
