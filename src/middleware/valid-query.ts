import { zValidator } from '@hono/zod-validator';
import type { z } from 'zod';
import { validationError } from './json-body';

/** zod validation of the query whose failure throws Valve's own 400, naming each bad parameter. */
export function validQuery<T extends z.ZodType>(schema: T) {
  return zValidator('query', schema, (result) => {
    if (!result.success) throw validationError(result.error);
  });
}
