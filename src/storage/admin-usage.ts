import type { AdminUsageGroup } from '../contracts/admin-usage';

// Usage of every tenant, or of one, for the operator's console (GET /v1/admin/usage). Kept apart from
// aggregateUsage (usage-records.ts), which always filters by the caller's tenant, so no change here
// can make a tenant's own GET /v1/usage read another's records.

export interface AdminUsageQuery {
  tenant?: string;
  fromMs: number;
  toMs: number;
  groupBy: readonly AdminUsageGroup[];
}

export interface AdminUsageRow {
  tenant?: string;
  model?: string;
  day?: string;
  requests: number;
  errors: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  avgLatencyMs: number;
  fallbacks: number;
}

interface RawRow {
  tenant?: string;
  model?: string;
  day?: string;
  requests: number;
  errors: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number | null;
  avg_latency_ms: number | null;
  fallbacks: number | null;
}

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

const figures = `COUNT(*) AS requests, COALESCE(SUM(outcome != 'ok'), 0) AS errors,
  COALESCE(SUM(input_tokens), 0) AS input_tokens, COALESCE(SUM(output_tokens), 0) AS output_tokens,
  COALESCE(SUM(cost_usd), 0) AS cost_usd, AVG(latency_ms) AS avg_latency_ms, SUM(fallbacks) AS fallbacks`;

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
    requests: row.requests,
    errors: row.errors,
    inputTokens: row.input_tokens,
    outputTokens: row.output_tokens,
    costUsd: row.cost_usd ?? 0,
    avgLatencyMs: Math.round(row.avg_latency_ms ?? 0),
    fallbacks: row.fallbacks ?? 0,
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
      `SELECT ${columns.map((c) => `${c}, `).join('')}${figures}
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
    .prepare(`SELECT ${figures} FROM usage_records WHERE ${where.join(' AND ')}`)
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
