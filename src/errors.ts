import registry from '../schemas/error-codes.json';

/** One entry of `schemas/error-codes.json`, the registry every error code is drawn from. */
export interface ErrorCodeEntry {
  code: string;
  status: number;
  category: string;
  retryable: boolean;
  meaning: string;
}

const entries = new Map<string, ErrorCodeEntry>(registry.codes.map((entry) => [entry.code, entry]));
const internalError = entries.get('internal.error') as ErrorCodeEntry;

/** The registry entry of a code; an unregistered code is treated as `internal.error`. */
export function lookupErrorCode(code: string): ErrorCodeEntry {
  return entries.get(code) ?? internalError;
}

export function registeredErrorCodes(): string[] {
  return [...entries.keys()];
}

/** The ErrorObject, with the request id, exactly as every error body carries it. */
export interface ErrorObject {
  code: string;
  message: string;
  category: string;
  retryable: boolean;
  details: Record<string, unknown> | null;
  requestId: string;
}

export interface ApiErrorOptions {
  details?: Record<string, unknown>;
  /** Response headers the error needs, such as Retry-After. */
  headers?: Record<string, string>;
  cause?: unknown;
}

/**
 * Valve's one error type. Anything that fails throws it; only the app's error handler (and the
 * stream error writer) turns it into the one error body.
 */
export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  readonly category: string;
  readonly retryable: boolean;
  readonly details: Record<string, unknown> | null;
  readonly headers: Record<string, string>;

  constructor(code: string, message: string, options: ApiErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    const entry = lookupErrorCode(code);
    this.name = 'ApiError';
    this.code = entry.code;
    this.status = entry.status;
    this.category = entry.category;
    this.retryable = entry.retryable;
    this.details = options.details ?? null;
    this.headers = options.headers ?? {};
  }

  toErrorObject(requestId: string): ErrorObject {
    return {
      code: this.code,
      message: this.message,
      category: this.category,
      retryable: this.retryable,
      details: this.details,
      requestId,
    };
  }
}

/** An unexpected failure becomes `internal.error`; its detail stays in the server log, never the body. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  return new ApiError(
    'internal.error',
    'An unexpected error occurred; quote the requestId when reporting it.',
    {
      cause: error,
    },
  );
}
