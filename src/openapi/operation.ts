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
  query?: z.ZodObject;
  body?: z.ZodType;
  status: number;
  response: z.ZodType;
  example: { body?: unknown; response: unknown };
  /** The error body: Valve's own, or OpenAI's shape for the OpenAI-compatible door. */
  errorBody?: 'openai';
}
