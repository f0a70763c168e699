// The usage_records table: one UsageRecord per request, no content.

import { type InsertShape, multiRowInserts } from './multi-row-insert';
import {
  dayOf,
  figuresOf,
  type RawUsageFigures,
  USAGE_FIGURES_SQL,
  type UsageFigures,
} from './usage-figures';

export interface UsageRecord {
  tenant: string;
  key: string | null;
  route: string;
  /** `provider/model` that answered, or `none` when no model did. */
  model: string;
  input_tokens: number;
  output_tokens: number;
  latency_ms: number;
  /** `ok`, or the error code the caller received. */
  outcome: string;
  fallbacks: number;
  stream: boolean;
  cost_usd: number;
  created_at: number;
}

const USAGE_INSERT: InsertShape = {
  head: 'INSERT INTO usage_records (tenant, key_id, route, model, input_tokens, output_tokens, latency_ms, outcome, fallbacks, stream, cost_usd, created_at, day) VALUES',
  row: '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  tail: '',
};

function usageValues(record: UsageRecord): unknown[] {
  return [
    record.tenant,
    record.key,
    record.route,
    record.model,
    record.input_tokens,
    record.output_tokens,
    Math.round(record.latency_ms),
    record.outcome,
    record.fallbacks,
    record.stream ? 1 : 0,
    record.cost_usd,
    record.created_at,
    dayOf(record.created_at),
  ];
}

/** The statements that insert `records`, as many to a statement as D1 allows. */
export function usageInserts(db: D1Database, records: readonly UsageRecord[]): D1PreparedStatement[] {
  return multiRowInserts(db, USAGE_INSERT, records.map(usageValues));
}

export type UsageGroup = 'model' | 'day';

export interface UsageRow extends UsageFigures {
  day?: string;
  model?: string;
}

interface RawUsageRow extends RawUsageFigures {
  day?: string;
  model?: string;
}

/**
 * Usage of one tenant between two instants (epoch ms, both inclusive), aggregated by the chosen
 * columns. The days of the bounds narrow the scan through the (tenant, day) index.
 */
export async function aggregateUsage(
  db: D1Database,
  query: { tenant: string; fromMs: number; toMs: number; groupBy: UsageGroup[] },
): Promise<UsageRow[]> {
  // The group columns come from a closed list, never from the caller's text.
  const columns = query.groupBy.map((group) => (group === 'day' ? 'day' : 'model'));
  const select = columns.length > 0 ? `${columns.join(', ')}, ` : '';
  const groupBy = columns.length > 0 ? `GROUP BY ${columns.join(', ')} ORDER BY ${columns.join(', ')}` : '';
  const { results } = await db
    .prepare(
      `SELECT ${select}${USAGE_FIGURES_SQL}
       FROM usage_records WHERE tenant = ? AND day >= ? AND day <= ? AND created_at >= ? AND created_at <= ?
       ${groupBy}`,
    )
    .bind(query.tenant, dayOf(query.fromMs), dayOf(query.toMs), query.fromMs, query.toMs)
    .all<RawUsageRow>();
  return results
    .filter((row) => row.requests > 0)
    .map((row) => ({
      ...(row.day === undefined ? {} : { day: row.day }),
      ...(row.model === undefined ? {} : { model: row.model }),
      ...figuresOf(row),
    }));
}

/** What a tenant spent since the start of the month (UTC), from its usage records. */
export async function monthSpend(db: D1Database, tenant: string, now: number): Promise<number> {
  const firstDay = `${new Date(now).toISOString().slice(0, 7)}-01`;
  const row = await db
    .prepare('SELECT COALESCE(SUM(cost_usd), 0) AS spent FROM usage_records WHERE tenant = ? AND day >= ?')
    .bind(tenant, firstDay)
    .first<{ spent: number }>();
  return row?.spent ?? 0;
}
