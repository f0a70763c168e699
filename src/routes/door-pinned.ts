import type { ReasonRequest } from '../contracts/reason-request';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';
import { loadCatalog } from '../policy/load-catalog';

/** A pinned model that is not in the catalog is a 404 in the door's own shape (OpenAI's `model_not_found`), before any planning. */
export function checkPinned(env: AppEnv['Bindings'], request: ReasonRequest): void {
  const pinned = request.modelPolicy?.pinned;
  const known = (m: { provider: string; model: string }) =>
    m.provider === pinned?.provider && m.model === pinned.model;
  if (pinned && !loadCatalog(env.VALVE_CATALOG).models.some(known)) {
    throw new ApiError(
      'request.not_found',
      `The model '${pinned.provider}/${pinned.model}' does not exist.`,
      {
        details: { param: 'model', openaiCode: 'model_not_found' },
      },
    );
  }
}
