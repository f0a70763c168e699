import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { usageQuerySchema } from '../contracts/operator-bodies';
import { endOfBound, startOfBound } from '../contracts/usage-bound';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';
import { validationError } from '../middleware/json-body';
import { requireKey } from '../middleware/require-key';
import { aggregateUsage, type UsageGroup } from '../storage/usage-records';

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

function daysAgo(days: number): string {
  return new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
}

export const usageRoutes = new Hono<AppEnv>().get(
  '/usage',
  requireKey('usage:read'),
  zValidator('query', usageQuerySchema, (result) => {
    if (!result.success) throw validationError(result.error);
  }),
  async (c) => {
    const query = c.req.valid('query');
    const from = query.from ?? daysAgo(30);
    const to = query.to ?? today();
    // Both are checked by the query schema: a day or an RFC 3339 timestamp.
    const fromMs = startOfBound(from) as number;
    const toMs = endOfBound(to) as number;
    if (fromMs > toMs)
      throw new ApiError('request.invalid', '`from` is after `to`.', {
        details: { issues: [{ path: '/from', code: 'range', message: 'after `to`' }] },
      });
    const groupBy: UsageGroup[] = query.groupBy ?? ['model', 'day'];
    const rows = await aggregateUsage(c.env.DB, { tenant: c.get('caller').tenant, fromMs, toMs, groupBy });
    const totals = rows.reduce(
      (sum, row) => ({
        requests: sum.requests + row.requests,
        errors: sum.errors + row.errors,
        inputTokens: sum.inputTokens + row.inputTokens,
        outputTokens: sum.outputTokens + row.outputTokens,
        costUsd: sum.costUsd + row.costUsd,
      }),
      { requests: 0, errors: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 },
    );
    return c.json({ tenant: c.get('caller').tenant, from, to, groupBy, rows, totals });
  },
);
