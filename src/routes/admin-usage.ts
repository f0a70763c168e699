import { Hono } from 'hono';
import { type AdminUsageGroup, adminUsageQuerySchema, defaultUsageRows } from '../contracts/admin-usage';
import { cursorMessage, pageOf } from '../contracts/list-cursor';
import { endOfBound, startOfBound } from '../contracts/usage-bound';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';
import { requireAdmin } from '../middleware/require-admin';
import { validQuery } from '../middleware/valid-query';
import { aggregateAdminUsage, totalAdminUsage } from '../storage/admin-usage';

const dayAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

function invalid(path: string, message: string): ApiError {
  return new ApiError('request.invalid', `The request is invalid (${path}: ${message}).`, {
    details: { issues: [{ path, code: 'custom', message }] },
  });
}

/** GET /v1/admin/usage: every tenant's usage (or one's), grouped as asked, a page of rows at a time. */
export const adminUsageRoutes = new Hono<AppEnv>().get(
  '/usage',
  requireAdmin,
  validQuery(adminUsageQuerySchema),
  async (c) => {
    const query = c.req.valid('query');
    const from = query.from ?? dayAgo(30);
    const to = query.to ?? dayAgo(0);
    // Both are checked by the query schema: a day or an RFC 3339 timestamp.
    const fromMs = startOfBound(from) as number;
    const toMs = endOfBound(to) as number;
    if (fromMs > toMs) throw invalid('/from', 'after `to`');
    const groupBy: AdminUsageGroup[] = query.groupBy ?? ['tenant'];
    const after = query.cursor;
    if (after !== undefined && after.length !== groupBy.length) throw invalid('/cursor', cursorMessage);
    const limit = query.limit ?? defaultUsageRows;
    const range = { tenant: query.tenant, fromMs, toMs, groupBy };
    const [rows, totals] = await Promise.all([
      aggregateAdminUsage(c.env.DB, { ...range, after, limit: limit + 1 }),
      totalAdminUsage(c.env.DB, range),
    ]);
    const { items, next } = pageOf(rows, limit, (row) => groupBy.map((group) => row[group] ?? ''));
    return c.json({
      tenant: query.tenant ?? null,
      from,
      to,
      groupBy,
      rows: items,
      totals: {
        requests: totals.requests,
        errors: totals.errors,
        inputTokens: totals.inputTokens,
        outputTokens: totals.outputTokens,
        costUsd: totals.costUsd,
      },
      next,
    });
  },
);
