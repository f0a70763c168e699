import type { z } from 'zod';

/** Who may call an operation: anyone, an API key with a scope, or the admin token. */
export type Security = { kind: 'public' } | { kind: 'key'; scope?: string } | { kind: 'admin' };

/** One documented operation: its schemas come from the zod contracts, and its examples must validate. */
export interface Operation {
  method: 'get' | 'post' | 'put' | 'delete';
  /** OpenAPI path template, e.g. `/v1/admin/keys/{id}`. */
  path: string;
  summary: string;
  security: Security;
  /** Path parameters with more to them than a non-empty string. */
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** What the body must be beyond its schema. */
  bodyDescription?: string;
  status: number;
  response: z.ZodType;
  /** Other framings of the success answer than JSON, as the media types the server streams. */
  streams?: readonly string[];
  /**
   * The error codes (schemas/error-codes.json) the operation's own work can answer with; the ones its
   * security, parameters and body imply are added by the document (src/openapi/error-responses.ts).
   */
  errors?: readonly string[];
  example: { body?: unknown; response: unknown; params?: Record<string, string> };
  /** The error body: Valve's own, or a door's own shape (OpenAI's, Anthropic's). */
  errorBody?: 'openai' | 'anthropic';
}
