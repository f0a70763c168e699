import type { AdminUsageGroup } from '../contracts/admin-usage';
import {
  dayOf,
  figuresOf,
  type RawUsageFigures,
  USAGE_FIGURES_SQL,
  type UsageFigures,
} from './usage-figures';

// Usage of every tenant, or of one, for the operator's console (GET /v1/admin/usage). Kept apart from
// aggregateUsage (usage-records.ts), which always filters by the caller's tenant, so no change here
// can make a tenant's own GET /v1/usage read another's records.

export interface AdminUsageQuery {
  tenant?: string;
  fromMs: number;
  toMs: number;
  groupBy: readonly AdminUsageGroup[];
}

export interface AdminUsageRow extends UsageFigures {
  tenant?: string;
  model?: string;
  day?: string;
}

interface RawRow extends RawUsageFigures {
  tenant?: string;
  model?: string;
  day?: string;
}

/** The WHERE clause of a query and its values: the days narrow the scan through an index. */
function rangeOf(query: AdminUsageQuery): { where: string[]; values: unknown[] } {
  const where = ['day >= ?', 'day <= ?', 'created_at >= ?', 'created_at <= ?'];
  const values: unknown[] = [dayOf(query.fromMs), dayOf(query.toMs), query.fromMs, query.toMs];
  if (query.tenant !== undefined) {
    where.unshift('tenant = ?');
    values.unshift(query.tenant);
  }
  return { where, values };
}

function fromRaw(row: RawRow): AdminUsageRow {
  return {
    ...(row.tenant === undefined ? {} : { tenant: row.tenant }),
    ...(row.model === undefined ? {} : { model: row.model }),
    ...(row.day === undefined ? {} : { day: row.day }),
    ...figuresOf(row),
  };
}

/**
 * Rows grouped by `groupBy` (in that order, which is also the rows' order), after the group `after`
 * (its values in the same order), `limit` rows. The group columns come from a closed list, never from
 * the caller's text.
 */
export async function aggregateAdminUsage(
  db: D1Database,
  query: AdminUsageQuery & { after?: readonly string[]; limit: number },
): Promise<AdminUsageRow[]> {
  const columns = [...query.groupBy];
  const { where, values } = rangeOf(query);
  if (query.after !== undefined && columns.length > 0) {
    where.push(`(${columns.join(', ')}) > (${columns.map(() => '?').join(', ')})`);
    values.push(...query.after);
  }
  const groups = columns.length > 0 ? `GROUP BY ${columns.join(', ')} ORDER BY ${columns.join(', ')}` : '';
  const { results } = await db
    .prepare(
      `SELECT ${columns.map((c) => `${c}, `).join('')}${USAGE_FIGURES_SQL}
       FROM usage_records WHERE ${where.join(' AND ')} ${groups} LIMIT ?`,
    )
    .bind(...values, query.limit)
    .all<RawRow>();
  return results.filter((row) => row.requests > 0).map(fromRaw);
}

/** The figures of the whole range, ungrouped. */
export async function totalAdminUsage(db: D1Database, query: AdminUsageQuery): Promise<AdminUsageRow> {
  const { where, values } = rangeOf(query);
  const row = await db
    .prepare(`SELECT ${USAGE_FIGURES_SQL} FROM usage_records WHERE ${where.join(' AND ')}`)
    .bind(...values)
    .first<RawRow>();
  return fromRaw(
    row ?? {
      requests: 0,
      errors: 0,
      input_tokens: 0,
      output_tokens: 0,
      cost_usd: 0,
      avg_latency_ms: 0,
      fallbacks: 0,
    },
  );
}
