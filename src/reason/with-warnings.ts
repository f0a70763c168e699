import type { ModelResponse, ModelWarning } from '../model/model-response';

/** The answer with the attempt loop's own warnings (`model.over_budget`) after the model's. */
export function withWarnings<R extends ModelResponse>(response: R, warnings: readonly ModelWarning[]): R {
  if (warnings.length === 0) return response;
  return { ...response, warnings: [...(response.warnings ?? []), ...warnings] };
}
