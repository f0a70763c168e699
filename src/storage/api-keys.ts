import type { Scope } from '../contracts/scopes';

// The api_keys table. Only SHA-256 hashes of keys are stored.

export interface ApiKeyRow {
  id: string;
  tenant: string;
  scopes: Scope[];
  createdAt: number;
  revokedAt: number | null;
  /** Requests per minute; null means the deployment's default. */
  rateLimitPerMinute: number | null;
}

interface RawRow {
  id: string;
  tenant: string;
  scopes: string;
  created_at: number;
  revoked_at: number | null;
  rate_limit_per_minute: number | null;
}

function fromRaw(row: RawRow): ApiKeyRow {
  return {
    id: row.id,
    tenant: row.tenant,
    scopes: JSON.parse(row.scopes) as Scope[],
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
    rateLimitPerMinute: row.rate_limit_per_minute,
  };
}

export async function insertApiKey(
  db: D1Database,
  key: {
    id: string;
    tenant: string;
    keyHash: string;
    scopes: Scope[];
    createdAt: number;
    rateLimitPerMinute: number | null;
  },
): Promise<void> {
  await db
    .prepare(
      'INSERT INTO api_keys (id, tenant, key_hash, scopes, created_at, rate_limit_per_minute) VALUES (?, ?, ?, ?, ?, ?)',
    )
    .bind(key.id, key.tenant, key.keyHash, JSON.stringify(key.scopes), key.createdAt, key.rateLimitPerMinute)
    .run();
}

export async function findApiKeyByHash(db: D1Database, keyHash: string): Promise<ApiKeyRow | null> {
  const row = await db
    .prepare(
      'SELECT id, tenant, scopes, created_at, revoked_at, rate_limit_per_minute FROM api_keys WHERE key_hash = ?',
    )
    .bind(keyHash)
    .first<RawRow>();
  return row ? fromRaw(row) : null;
}

/** Marks a key revoked; returns false when there is no such key. Revoking twice keeps the first time. */
export async function revokeApiKey(db: D1Database, id: string, at: number): Promise<ApiKeyRow | null> {
  const row = await db
    .prepare(
      'UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ? RETURNING id, tenant, scopes, created_at, revoked_at, rate_limit_per_minute',
    )
    .bind(at, id)
    .first<RawRow>();
  return row ? fromRaw(row) : null;
}

/** A key as the console lists it: never its hash. */
export interface ListedKey extends ApiKeyRow {
  /** The newest usage record's time; null when no request has used the key. */
  lastUsedAt: number | null;
}

/**
 * Keys newest first (creation time, then id), of one tenant or all, after a place in that order;
 * `limit` rows. The secret's hash is never selected.
 */
export async function listApiKeys(
  db: D1Database,
  query: { tenant?: string; after?: readonly [number, string]; limit: number },
): Promise<ListedKey[]> {
  const where: string[] = [];
  const values: unknown[] = [];
  if (query.tenant !== undefined) {
    where.push('k.tenant = ?');
    values.push(query.tenant);
  }
  if (query.after !== undefined) {
    where.push('(k.created_at, k.id) < (?, ?)');
    values.push(...query.after);
  }
  const { results } = await db
    .prepare(
      `SELECT k.id, k.tenant, k.scopes, k.created_at, k.revoked_at, k.rate_limit_per_minute,
              (SELECT u.created_at FROM usage_records u WHERE u.key_id = k.id
               ORDER BY u.created_at DESC LIMIT 1) AS last_used_at
       FROM api_keys k ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY k.created_at DESC, k.id DESC LIMIT ?`,
    )
    .bind(...values, query.limit)
    .all<RawRow & { last_used_at: number | null }>();
  return results.map((row) => ({ ...fromRaw(row), lastUsedAt: row.last_used_at }));
}
