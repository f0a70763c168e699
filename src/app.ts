import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from './env';
import { ApiError, toApiError } from './errors';
import { describeCause } from './middleware/describe-cause';
import { readBody } from './middleware/read-body';
import { requestIds } from './middleware/request-ids';
import { adminApprovalRoutes } from './routes/admin-approvals';
import { adminAuditRoutes } from './routes/admin-audit';
import { adminAuditProofRoutes } from './routes/admin-audit-proofs';
import { adminKeyRoutes } from './routes/admin-keys';
import { adminModelRoutes } from './routes/admin-models';
import { adminReceiptRoutes } from './routes/admin-receipts';
import { adminTenantRoutes } from './routes/admin-tenants';
import { adminUsageRoutes } from './routes/admin-usage';
import { anthropicErrorResponse, anthropicRoutes } from './routes/anthropic';
import { approvalRoutes } from './routes/approvals';
import { consolePageRoutes } from './routes/console-page';
import { docsRoutes } from './routes/docs';
import { healthRoutes } from './routes/health';
import { logRoutes } from './routes/log';
import { logTileRoutes } from './routes/log-tiles';
import { allowedMethods, methodNotAllowed } from './routes/method-not-allowed';
import { modelRoutes } from './routes/models';
import { openaiErrorResponse, openaiRoutes } from './routes/openai';
import { reasonRoutes } from './routes/reason';
import { receiptRoutes } from './routes/receipts';
import { trustRoutes } from './routes/trust';
import { usageRoutes } from './routes/usage';
import { verifyPageRoutes } from './routes/verify-page';
import { countSetting } from './settings';
import { RoundTrips } from './storage/round-trips';

function fromHttpException(error: HTTPException): ApiError {
  if (error.status === 413) return new ApiError('request.too_large', 'The body is over the size limit.');
  if (error.status === 400) return new ApiError('request.malformed_json', 'The body is not valid JSON.');
  return toApiError(error);
}

/** The routes whose bodies may carry images, audio and PDFs. */
const mediaRoutes = new Set([
  '/v1/reason',
  '/openai/v1/chat/completions',
  '/openai/v1/responses',
  '/anthropic/v1/messages',
  '/anthropic/v1/messages/count_tokens',
]);

export const app = new Hono<AppEnv>()
  .use('*', async (c, next) => {
    const arrivedAt = performance.now();
    const trips = new RoundTrips();
    c.set('arrivedAt', arrivedAt);
    c.set('trips', trips);
    await next();
    try {
      c.res.headers.set('Server-Timing', trips.header(performance.now() - arrivedAt));
    } catch {
      // A response with immutable headers (a fetched one passed through) goes out without it.
    }
  })
  .use('*', requestIds)
  .use('*', async (c, next) => {
    // The routes that take media parts read up to MAX_MEDIA_BODY_BYTES; their text alone is held to
    // MAX_BODY_BYTES once the body is parsed (media/check-text-bytes).
    const text = countSetting(c.env, 'MAX_BODY_BYTES');
    const maxSize = mediaRoutes.has(c.req.path)
      ? Math.max(text, countSetting(c.env, 'MAX_MEDIA_BODY_BYTES'))
      : text;
    return bodyLimit({
      maxSize,
      onError: () => {
        throw new ApiError('request.too_large', `The body is over the limit of ${maxSize} bytes.`, {
          details: { maxBytes: maxSize },
        });
      },
    })(c, next);
  })
  .use('*', readBody)
  .route('/', healthRoutes)
  .route('/', docsRoutes)
  .route('/v1', reasonRoutes)
  .route('/openai/v1', openaiRoutes)
  .route('/anthropic/v1', anthropicRoutes)
  .route('/v1', usageRoutes)
  .route('/v1', modelRoutes)
  .route('/v1', receiptRoutes)
  .route('/v1', approvalRoutes)
  .route('/v1', logRoutes)
  .route('/', logTileRoutes)
  .route('/', trustRoutes)
  .route('/', verifyPageRoutes)
  .route('/', consolePageRoutes)
  .route('/v1/admin', adminKeyRoutes)
  .route('/v1/admin', adminTenantRoutes)
  .route('/v1/admin', adminAuditRoutes)
  .route('/v1/admin', adminAuditProofRoutes)
  .route('/v1/admin', adminUsageRoutes)
  .route('/v1/admin', adminModelRoutes)
  .route('/v1/admin', adminReceiptRoutes)
  .route('/v1/admin', adminApprovalRoutes);

for (const [path, allow] of allowedMethods(app.routes)) app.all(path, methodNotAllowed(allow));

app.notFound((c) => {
  const error = new ApiError(
    'request.not_found',
    `No endpoint ${c.req.method} ${new URL(c.req.url).pathname}.`,
  );
  return c.json({ error: error.toErrorObject(c.get('requestId')) }, 404);
});

app.onError((thrown, c) => {
  const path = new URL(c.req.url).pathname;
  if (path.startsWith('/openai/')) return openaiErrorResponse(thrown, c);
  if (path.startsWith('/anthropic/')) return anthropicErrorResponse(thrown, c);
  const error = thrown instanceof HTTPException ? fromHttpException(thrown) : toApiError(thrown);
  const requestIdValue = c.get('requestId') ?? crypto.randomUUID();
  if (error.status >= 500) {
    console.error(
      JSON.stringify({
        level: 'error',
        requestId: requestIdValue,
        correlationId: c.get('correlationId'),
        code: error.code,
        cause: describeCause(error.cause ?? thrown),
      }),
    );
  }
  for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
  return c.json({ error: error.toErrorObject(requestIdValue) }, error.status as ContentfulStatusCode);
});

export type AppType = typeof app;
