import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';
import { secretsEqual } from './secret-hash';

/** Admin endpoints take `Authorization: Bearer $ADMIN_TOKEN`; with no token configured they are closed. */
export const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  const header = c.req.header('Authorization') ?? '';
  const token = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header)?.[1];
  if (!token)
    throw new ApiError('auth.missing_key', 'Send the admin token as `Authorization: Bearer <token>`.');
  const expected = c.env.ADMIN_TOKEN ?? '';
  if (expected === '' || !(await secretsEqual(token, expected))) {
    throw new ApiError('auth.invalid_key', 'The admin token is not valid.');
  }
  await next();
});
