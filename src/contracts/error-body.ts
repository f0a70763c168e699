import { z } from 'zod';

/** The one error body every endpoint answers with: `{ error: ErrorObject }` (schemas/error.schema.json). */
export const errorBodySchema = z.strictObject({
  error: z.strictObject({
    code: z.string().regex(/^[a-z_]+\.[a-z_]+$/),
    message: z.string().min(1),
    category: z.string(),
    retryable: z.boolean(),
    details: z.record(z.string(), z.unknown()).nullable(),
    requestId: z.string().min(1),
  }),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
