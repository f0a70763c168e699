// The log shard's record of the receipts of caller-chosen ids: one row per (tenant, receiptId), written
// in the same transaction as the entry's leaf and checkpoint, so the shard (single-threaded, one batch
// at a time) is the arbiter of "one logged receipt per id". A holder's row carries the signed receipt
// and its sealed replay copy, so a retry that takes the claim over after the holder died can answer
// it; `registered` marks a token a taker put there, which refuses every older holder.

/** What D1 keeps of a claimed receipt besides its JWS, index, proof and replay copy. */
export interface ClaimMeta {
  saltGenerated: boolean;
  kid: string;
  iat: number;
  provider: string;
  model: string;
  region: string;
  costUsd: number;
  replayExpiresAt: number | null;
}

/** A holder's signed receipt, to be logged only if the holder still holds the id's claim. */
export interface ClaimedEntry {
  tenant: string;
  rid: string;
  /** The holder's claim token. */
  token: string;
  /** The 32-byte entry hash. */
  entry: Uint8Array;
  jws: string;
  /** The answer sealed under the caller's salt; null when Valve drew the salt. */
  replay: Uint8Array | null;
  meta: ClaimMeta;
  /** When the row may go, once its receipt is saved in D1 (the replay retention). */
  expiresAt: number;
}

/** The receipt logged for an id, as the shard keeps it, with a proof at its latest checkpoint. */
export interface LoggedClaim {
  index: number;
  proof: string;
  jws: string;
  replay: Uint8Array | null;
  meta: ClaimMeta;
}

export type ClaimedAppend =
  | { kind: 'appended'; index: number; proof: string }
  | { kind: 'lost' }
  | { kind: 'logged-by-other'; logged: LoggedClaim };

export type ClaimRegistration = { kind: 'registered' } | { kind: 'logged'; logged: LoggedClaim };

export interface ClaimRow {
  token: string;
  registered: number;
  idx: number | null;
  jws: string | null;
  replay: ArrayBuffer | null;
  meta: string | null;
}

/** Rows whose receipt is saved in D1 and whose retention passed are purged at most this often. */
const PURGE_EVERY_MS = 60 * 60 * 1000;

export function createClaimsTable(sql: SqlStorage): void {
  sql.exec(
    `CREATE TABLE IF NOT EXISTS log_claims (tenant TEXT NOT NULL, rid TEXT NOT NULL, token TEXT NOT NULL,
       registered INTEGER NOT NULL, idx INTEGER, jws TEXT, replay BLOB, meta TEXT,
       expires_at INTEGER NOT NULL, saved INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (tenant, rid)) WITHOUT ROWID`,
  );
  sql.exec('CREATE INDEX IF NOT EXISTS log_claims_expiry ON log_claims (expires_at) WHERE saved = 1');
}

export function claimRowOf(sql: SqlStorage, tenant: string, rid: string): ClaimRow | undefined {
  return sql
    .exec<{ [K in keyof ClaimRow]: ClaimRow[K] }>(
      'SELECT token, registered, idx, jws, replay, meta FROM log_claims WHERE tenant = ? AND rid = ?',
      tenant,
      rid,
    )
    .toArray()[0];
}

/** Records a logged entry under its holder's token (inside the batch's transaction). */
export function recordClaimed(sql: SqlStorage, claim: ClaimedEntry, index: number): void {
  sql.exec(
    `INSERT INTO log_claims (tenant, rid, token, registered, idx, jws, replay, meta, expires_at)
     VALUES (?, ?, ?, 0, ?, ?, ?, ?, ?)
     ON CONFLICT (tenant, rid) DO UPDATE SET idx = excluded.idx, jws = excluded.jws,
       replay = excluded.replay, meta = excluded.meta, expires_at = excluded.expires_at`,
    claim.tenant,
    claim.rid,
    claim.token,
    index,
    claim.jws,
    claim.replay,
    JSON.stringify(claim.meta),
    claim.expiresAt,
  );
}

/** Puts a taker's token in place of any unlogged holder's, so that holder's append is refused. */
export function registerToken(
  sql: SqlStorage,
  claim: { tenant: string; rid: string; token: string; expiresAt: number },
): void {
  sql.exec(
    `INSERT INTO log_claims (tenant, rid, token, registered, expires_at) VALUES (?, ?, ?, 1, ?)
     ON CONFLICT (tenant, rid) DO UPDATE SET token = excluded.token, registered = 1,
       expires_at = excluded.expires_at WHERE idx IS NULL`,
    claim.tenant,
    claim.rid,
    claim.token,
    claim.expiresAt,
  );
}

/** Once D1 holds the receipt, the shard's replay copy is no longer needed; the small row stays. */
export function markSaved(sql: SqlStorage, tenant: string, rid: string): void {
  sql.exec(
    'UPDATE log_claims SET replay = NULL, saved = 1 WHERE tenant = ? AND rid = ? AND idx IS NOT NULL',
    tenant,
    rid,
  );
}

/**
 * Purges rows saved in D1 whose retention passed (D1's row then answers for the id). A row never
 * saved stays: it is what lets a retry find a receipt whose holder died after its append.
 */
export function purgeClaims(sql: SqlStorage, now: number, lastPurge: number): number {
  if (now - lastPurge < PURGE_EVERY_MS) return lastPurge;
  sql.exec('DELETE FROM log_claims WHERE saved = 1 AND expires_at <= ?', now);
  return now;
}

/** The row of a logged receipt as the shard answers it, with `proof` at the latest checkpoint. */
export function loggedOf(row: ClaimRow & { idx: number }, proof: string): LoggedClaim {
  return {
    index: row.idx,
    proof,
    jws: row.jws ?? '',
    replay: row.replay === null ? null : new Uint8Array(row.replay),
    meta: JSON.parse(row.meta ?? '{}') as ClaimMeta,
  };
}
