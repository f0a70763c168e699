import type { CallOptions, ModelAdapter } from '../../model/model-adapter';
import type { ModelRequest, Settings } from '../../model/model-request';
import type { ModelWarning, StreamPart } from '../../model/model-response';

/** The generation settings a provider may lack; `max_tokens` every adapter sends its own way. */
export type OptionalSetting = 'temperature' | 'top_p' | 'stop' | 'seed' | 'parallel_tool_calls' | 'reasoning';

/**
 * Whether a provider takes a setting: always, never, or only for some values, models or requests (given
 * all settings, the call's options, which name the model and say whether its catalog entry reasons, and
 * the request).
 */
export type SettingSupport = Record<
  OptionalSetting,
  boolean | ((settings: Settings, options: CallOptions, request: ModelRequest) => boolean)
>;

/** The Reason request's names, so a warning tells the caller which of its fields was not sent. */
const requestNames: Record<OptionalSetting, string> = {
  temperature: 'sampling.temperature',
  top_p: 'sampling.topP',
  stop: 'sampling.stop',
  seed: 'sampling.seed',
  parallel_tool_calls: 'parallelToolCalls',
  reasoning: 'reasoning',
};

/**
 * The request without the settings this provider does not take, and one `model.setting_dropped`
 * warning per dropped setting. A sampling setting changes how an answer is drawn, not what it means,
 * so a model that cannot take one still answers instead of failing.
 */
export function dropUnsupported(
  request: ModelRequest,
  support: SettingSupport,
  provider: string,
  options: CallOptions,
): { request: ModelRequest; warnings: ModelWarning[] } {
  const settings = request.settings;
  if (!settings) return { request, warnings: [] };
  const kept: Settings = { ...settings };
  const warnings: ModelWarning[] = [];
  for (const name of Object.keys(requestNames) as OptionalSetting[]) {
    if (settings[name] === undefined) continue;
    const rule = support[name];
    if (typeof rule === 'function' ? rule(settings, options, request) : rule) continue;
    delete kept[name];
    warnings.push({
      code: 'model.setting_dropped',
      message: `${provider} does not take ${requestNames[name]} with this value or request; it was not sent.`,
    });
  }
  return warnings.length === 0
    ? { request, warnings }
    : { request: { ...request, settings: kept }, warnings };
}

async function* withFinishWarnings(
  parts: AsyncIterable<StreamPart>,
  warnings: ModelWarning[],
): AsyncIterable<StreamPart> {
  for await (const part of parts) {
    if (part.type === 'finish') yield { ...part, warnings: [...warnings, ...(part.warnings ?? [])] };
    else yield part;
  }
}

/** The adapter, sending only the settings its provider takes and saying which it dropped. */
export function withSupportedSettings(adapter: ModelAdapter, support: SettingSupport): ModelAdapter {
  const drop = (request: ModelRequest, options: CallOptions) =>
    dropUnsupported(request, support, adapter.kind, options);
  return {
    kind: adapter.kind,
    async generate(request, options) {
      const sendable = drop(request, options);
      const response = await adapter.generate(sendable.request, options);
      if (sendable.warnings.length === 0) return response;
      return { ...response, warnings: [...sendable.warnings, ...(response.warnings ?? [])] };
    },
    stream(request, options) {
      const sendable = drop(request, options);
      const parts = adapter.stream(sendable.request, options);
      return sendable.warnings.length === 0 ? parts : withFinishWarnings(parts, sendable.warnings);
    },
    ...(adapter.toWireBody && {
      toWireBody: (request, options) => adapter.toWireBody?.(drop(request, options).request, options),
    }),
  };
}
