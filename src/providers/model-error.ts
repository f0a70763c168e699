import { ApiError } from '../errors';
import type { ModelError } from '../model/model-error';

/**
 * A classified provider failure as Valve's one error type: code `model.<kind>`, the ModelError as its
 * details on the wire, and the ModelError itself for the code that decides what to do next.
 */
export class ModelCallError extends ApiError {
  readonly modelError: ModelError;

  constructor(error: ModelError, options: { headers?: Record<string, string>; cause?: unknown } = {}) {
    // The billed usage is for the attempt's cost, which the decision trace reports; not an error detail.
    const { usage: _billed, ...details } = error;
    super(`model.${error.kind}`, error.message, { details, ...options });
    this.name = 'ModelCallError';
    this.modelError = error;
  }
}

/** A classified provider failure, ready to throw. */
export function modelFailure(error: ModelError): ModelCallError {
  return new ModelCallError(error);
}

/** The ModelError of a failure thrown by an adapter, or undefined for any other failure. */
export function readModelError(error: unknown): ModelError | undefined {
  return error instanceof ModelCallError ? { ...error.modelError } : undefined;
}
