import { toApiError } from '../errors';
import type { PartialUsage, StreamEvent } from './stream-events';

/**
 * The stream's error writer: the one place besides the app's onError that turns a failure into the
 * error JSON (`ApiError.toErrorObject`). `emittedDeltas` says whether the caller already got content.
 */
export function errorEvent(
  error: unknown,
  requestId: string,
  emittedDeltas: boolean,
  partialUsage: PartialUsage,
): Extract<StreamEvent, { type: 'response.error' }> {
  const apiError = toApiError(error);
  return { type: 'response.error', error: apiError.toErrorObject(requestId), emittedDeltas, partialUsage };
}
