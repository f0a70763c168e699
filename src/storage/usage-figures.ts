// What a usage aggregate says of a group of usage_records rows, for a tenant's GET /v1/usage and the
// operator's GET /v1/admin/usage alike: the SQL that sums them and its row as the API names it. The
// queries (and so whose records they read) stay apart, in usage-records.ts and admin-usage.ts.

export interface UsageFigures {
  requests: number;
  errors: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  avgLatencyMs: number;
  fallbacks: number;
}

export interface RawUsageFigures {
  requests: number;
  errors: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number | null;
  avg_latency_ms: number | null;
  fallbacks: number | null;
}

/** The select list of the figures, for any group of rows (an empty one sums to zeros). */
export const USAGE_FIGURES_SQL = `COUNT(*) AS requests, COALESCE(SUM(outcome != 'ok'), 0) AS errors,
  COALESCE(SUM(input_tokens), 0) AS input_tokens, COALESCE(SUM(output_tokens), 0) AS output_tokens,
  COALESCE(SUM(cost_usd), 0) AS cost_usd, AVG(latency_ms) AS avg_latency_ms, SUM(fallbacks) AS fallbacks`;

/** The UTC day (`YYYY-MM-DD`) of an instant, as usage_records.day holds it. */
export const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export function figuresOf(row: RawUsageFigures): UsageFigures {
  return {
    requests: row.requests,
    errors: row.errors,
    inputTokens: row.input_tokens,
    outputTokens: row.output_tokens,
    costUsd: row.cost_usd ?? 0,
    avgLatencyMs: Math.round(row.avg_latency_ms ?? 0),
    fallbacks: row.fallbacks ?? 0,
  };
}
