import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { requestId } from 'hono/request-id';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from './env';
import { ApiError, toApiError } from './errors';
import { adminAuditRoutes } from './routes/admin-audit';
import { adminAuditProofRoutes } from './routes/admin-audit-proofs';
import { adminKeyRoutes } from './routes/admin-keys';
import { adminTenantRoutes } from './routes/admin-tenants';
import { docsRoutes } from './routes/docs';
import { healthRoutes } from './routes/health';
import { logRoutes } from './routes/log';
import { modelRoutes } from './routes/models';
import { openaiErrorResponse, openaiRoutes } from './routes/openai';
import { reasonRoutes } from './routes/reason';
import { receiptRoutes } from './routes/receipts';
import { trustRoutes } from './routes/trust';
import { usageRoutes } from './routes/usage';

const defaultMaxBodyBytes = 1024 * 1024;

function methodNotAllowed(allow: string) {
  return () => {
    throw new ApiError('request.method_not_allowed', `This endpoint answers ${allow} only.`, {
      headers: { Allow: allow },
    });
  };
}

function fromHttpException(error: HTTPException): ApiError {
  if (error.status === 413) return new ApiError('request.too_large', 'The body is over the size limit.');
  if (error.status === 400) return new ApiError('request.malformed_json', 'The body is not valid JSON.');
  return toApiError(error);
}

export const app = new Hono<AppEnv>()
  .use('*', async (c, next) => {
    c.set('arrivedAt', performance.now());
    await next();
  })
  .use('*', requestId({ headerName: 'X-Request-Id' }))
  .use('*', async (c, next) => {
    const maxSize = Number(c.env.MAX_BODY_BYTES) || defaultMaxBodyBytes;
    return bodyLimit({
      maxSize,
      onError: () => {
        throw new ApiError('request.too_large', `The body is over the limit of ${maxSize} bytes.`, {
          details: { maxBytes: maxSize },
        });
      },
    })(c, next);
  })
  .route('/', healthRoutes)
  .route('/', docsRoutes)
  .route('/v1', reasonRoutes)
  .route('/openai/v1', openaiRoutes)
  .route('/v1', usageRoutes)
  .route('/v1', modelRoutes)
  .route('/v1', receiptRoutes)
  .route('/v1', logRoutes)
  .route('/', trustRoutes)
  .route('/v1/admin', adminKeyRoutes)
  .route('/v1/admin', adminTenantRoutes)
  .route('/v1/admin', adminAuditRoutes)
  .route('/v1/admin', adminAuditProofRoutes)
  .all('/health', methodNotAllowed('GET'))
  .all('/v1/reason', methodNotAllowed('POST'))
  .all('/v1/usage', methodNotAllowed('GET'))
  .all('/v1/models', methodNotAllowed('GET'))
  .all('/v1/admin/keys', methodNotAllowed('POST'))
  .all('/v1/admin/keys/:id', methodNotAllowed('DELETE'))
  .all('/v1/admin/tenants/:tenant/budget', methodNotAllowed('GET, PUT'))
  .all('/v1/admin/audit', methodNotAllowed('GET'))
  .all('/v1/admin/audit/proofs', methodNotAllowed('GET'))
  .all('/v1/receipts/verify', methodNotAllowed('POST'))
  .all('/v1/receipts/:receiptId', methodNotAllowed('GET'))
  .all('/v1/log/checkpoint', methodNotAllowed('GET'))
  .all('/v1/log/inclusion', methodNotAllowed('GET'))
  .all('/v1/log/consistency', methodNotAllowed('GET'))
  .all('/v1/trust-root', methodNotAllowed('GET'))
  .all('/.well-known/jwks.json', methodNotAllowed('GET'));

app.notFound((c) => {
  const error = new ApiError(
    'request.not_found',
    `No endpoint ${c.req.method} ${new URL(c.req.url).pathname}.`,
  );
  return c.json({ error: error.toErrorObject(c.var.requestId) }, 404);
});

app.onError((thrown, c) => {
  if (new URL(c.req.url).pathname.startsWith('/openai/')) return openaiErrorResponse(thrown, c);
  const error = thrown instanceof HTTPException ? fromHttpException(thrown) : toApiError(thrown);
  const requestIdValue = c.var.requestId ?? crypto.randomUUID();
  if (error.status >= 500) {
    console.error(
      JSON.stringify({
        level: 'error',
        requestId: requestIdValue,
        code: error.code,
        cause: String(error.cause ?? thrown),
      }),
    );
  }
  for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
  return c.json({ error: error.toErrorObject(requestIdValue) }, error.status as ContentfulStatusCode);
});

export type AppType = typeof app;
