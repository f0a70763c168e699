import { z } from 'zod';
import { queryTenant } from './admin-lists';
import { queryCursor } from './list-cursor';
import { usageBound, usageTotals } from './operator-bodies';
import { queryInteger, queryList } from './query-params';

// GET /v1/admin/usage: the usage of every tenant (or of one), aggregated by tenant, model and day as
// asked, for the operator's console. The same records and bounds as a tenant's GET /v1/usage.

export const adminUsageGroups = ['tenant', 'model', 'day'] as const;
export type AdminUsageGroup = (typeof adminUsageGroups)[number];

/** Aggregated rows a page: up to 10 000, 1000 when `limit` is not given. */
export const maxUsageRows = 10_000;
export const defaultUsageRows = 1000;

export const adminUsageQuerySchema = z.strictObject({
  from: usageBound().optional(),
  to: usageBound().optional(),
  tenant: queryTenant().optional(),
  groupBy: queryList(adminUsageGroups).optional(),
  limit: queryInteger(1, maxUsageRows).optional(),
  /** After the row with these group values, in the order of `groupBy`. */
  cursor: queryCursor(z.array(z.string().max(256)).min(1).max(adminUsageGroups.length)).optional(),
});

export const adminUsageRowSchema = z.strictObject({
  tenant: z.string().optional(),
  model: z.string().optional(),
  day: z.string().optional(),
  ...usageTotals,
  avgLatencyMs: z.number().int(),
  fallbacks: z.number().int(),
});
export type AdminUsageRow = z.infer<typeof adminUsageRowSchema>;

export const adminUsageBodySchema = z.strictObject({
  /** The tenant asked for, or null for every tenant. */
  tenant: z.string().nullable(),
  from: z.string(),
  to: z.string(),
  groupBy: z.array(z.enum(adminUsageGroups)),
  rows: z.array(adminUsageRowSchema),
  /** Over the whole range, not only this page. */
  totals: z.strictObject(usageTotals),
  next: z.string().nullable(),
});
export type AdminUsageBody = z.infer<typeof adminUsageBodySchema>;
