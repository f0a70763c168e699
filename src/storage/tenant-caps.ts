// The tenant_caps table (migrations/0005_console.sql): each tenant's monthly cap as last set, for the
// tenants list. Admission reads the cap from the tenant's TenantBudget Durable Object, never from here.

/** Records the cap the tenant's budget object now holds; null removes it. */
export async function saveTenantCap(
  db: D1Database,
  tenant: string,
  capUsd: number | null,
  at: number,
): Promise<void> {
  const statement =
    capUsd === null
      ? db.prepare('DELETE FROM tenant_caps WHERE tenant = ?').bind(tenant)
      : db
          .prepare(
            'INSERT INTO tenant_caps (tenant, monthly_cap_usd, updated_at) VALUES (?, ?, ?) ON CONFLICT (tenant) DO UPDATE SET monthly_cap_usd = excluded.monthly_cap_usd, updated_at = excluded.updated_at',
          )
          .bind(tenant, capUsd, at);
  await statement.run();
}

export interface TenantRow {
  tenant: string;
  activeKeys: number;
  revokedKeys: number;
  capUsd: number | null;
  /** What its usage records cost since `sinceDay`. */
  spentUsd: number;
}

interface RawTenantRow {
  tenant: string;
  active_keys: number;
  revoked_keys: number;
  cap_usd: number | null;
  spent_usd: number;
}

/**
 * Every tenant that has a key or a cap, by name after `after`, `limit` rows: its keys, its cap and what
 * its usage records cost from `sinceDay` (a UTC day) on.
 */
export async function listTenants(
  db: D1Database,
  query: { after: string; sinceDay: string; limit: number },
): Promise<TenantRow[]> {
  const { results } = await db
    .prepare(
      `WITH names (tenant) AS (SELECT tenant FROM api_keys UNION SELECT tenant FROM tenant_caps)
       SELECT n.tenant,
              (SELECT COUNT(*) FROM api_keys k WHERE k.tenant = n.tenant AND k.revoked_at IS NULL) AS active_keys,
              (SELECT COUNT(*) FROM api_keys k WHERE k.tenant = n.tenant AND k.revoked_at IS NOT NULL) AS revoked_keys,
              (SELECT c.monthly_cap_usd FROM tenant_caps c WHERE c.tenant = n.tenant) AS cap_usd,
              (SELECT COALESCE(SUM(u.cost_usd), 0) FROM usage_records u
               WHERE u.tenant = n.tenant AND u.day >= ?) AS spent_usd
       FROM names n WHERE n.tenant > ? ORDER BY n.tenant LIMIT ?`,
    )
    .bind(query.sinceDay, query.after, query.limit)
    .all<RawTenantRow>();
  return results.map((row) => ({
    tenant: row.tenant,
    activeKeys: row.active_keys,
    revokedKeys: row.revoked_keys,
    capUsd: row.cap_usd,
    spentUsd: row.spent_usd,
  }));
}
