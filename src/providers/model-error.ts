import { ApiError } from '../errors';
import type { ModelError, ModelErrorKind } from '../model/model-error';
import { modelErrorKinds } from '../model/model-error';

/** A classified provider failure as Valve's one error type: code `model.<kind>`, the ModelError in details. */
export function modelFailure(error: ModelError): ApiError {
  return new ApiError(`model.${error.kind}`, error.message, { details: { ...error } });
}

function isModelErrorKind(value: unknown): value is ModelErrorKind {
  return typeof value === 'string' && (modelErrorKinds as readonly string[]).includes(value);
}

/** The ModelError inside an ApiError thrown by an adapter, or undefined for any other failure. */
export function readModelError(error: unknown): ModelError | undefined {
  if (!(error instanceof ApiError) || !error.code.startsWith('model.')) return undefined;
  const details = error.details ?? {};
  const kind = details.kind;
  if (!isModelErrorKind(kind)) return undefined;
  return { ...(details as Partial<ModelError>), kind, message: error.message };
}
