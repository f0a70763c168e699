// Issued receipts of every tenant, or of one, newest first, for the operator's console
// (GET /v1/admin/receipts): metadata only. The JWS, the proof and the replay copy are never selected.

export interface ListedReceipt {
  tenant: string;
  id: string;
  issuedAt: number;
  provider: string;
  model: string;
  region: string;
  costUsd: number;
  logOrigin: string | null;
  logIndex: number | null;
}

interface RawRow {
  tenant: string;
  id: string;
  iat: number;
  provider: string | null;
  model: string | null;
  region: string | null;
  cost_usd: number | null;
  log_origin: string | null;
  log_index: number | null;
}

/** Receipts by issue time, then tenant and id, all descending, after a place in that order; `limit` rows. */
export async function listIssuedReceipts(
  db: D1Database,
  query: { tenant?: string; after?: readonly [number, string, string]; limit: number },
): Promise<ListedReceipt[]> {
  const where = ["state = 'issued'"];
  const values: unknown[] = [];
  if (query.tenant !== undefined) {
    where.push('tenant = ?');
    values.push(query.tenant);
  }
  if (query.after !== undefined) {
    where.push('(iat, tenant, id) < (?, ?, ?)');
    values.push(...query.after);
  }
  const { results } = await db
    .prepare(
      `SELECT tenant, id, iat, provider, model, region, cost_usd, log_origin, log_index FROM receipts
       WHERE ${where.join(' AND ')} ORDER BY iat DESC, tenant DESC, id DESC LIMIT ?`,
    )
    .bind(...values, query.limit)
    .all<RawRow>();
  return results.map((row) => ({
    tenant: row.tenant,
    id: row.id,
    issuedAt: row.iat,
    provider: row.provider ?? '',
    model: row.model ?? '',
    region: row.region ?? '',
    costUsd: row.cost_usd ?? 0,
    logOrigin: row.log_origin,
    logIndex: row.log_index,
  }));
}
