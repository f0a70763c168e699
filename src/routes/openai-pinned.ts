import type { ReasonRequest } from '../contracts/reason-request';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';
import { inCatalog } from '../openai/models-list';
import { loadCatalog } from '../policy/load-catalog';

/** A pinned model that is not in the catalog is OpenAI's 404 `model_not_found`, before any planning. */
export function checkPinned(env: AppEnv['Bindings'], request: ReasonRequest): void {
  const pinned = request.modelPolicy?.pinned;
  if (pinned && !inCatalog(loadCatalog(env.VALVE_CATALOG), pinned)) {
    throw new ApiError(
      'request.not_found',
      `The model '${pinned.provider}/${pinned.model}' does not exist.`,
      {
        details: { param: 'model', openaiCode: 'model_not_found' },
      },
    );
  }
}
