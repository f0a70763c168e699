import {
  type IssuedRow,
  purgeExpiredReplays,
  SIGNED_ASSIGNMENTS,
  type SignedRow,
  signedValues,
} from './receipts';
// D1 queries of the claims of caller-chosen receipt ids (migrations/0004_receipt_claims.sql). Every
// write a holder makes to a claim it may have lost compares its claim token in the same statement, so
// a request that lost its claim can neither sign over, release, nor extend the claim of the request
// that took it; the log shard, not D1, decides which receipt is the id's (log-claims.ts).

export interface NewClaim {
  tenant: string;
  id: string;
  /** The holder's random fencing token. */
  token: string;
  now: number;
  leaseUntil: number;
  /** The request digest keyed under the caller's salt; null when Valve draws the salt. */
  digest: Uint8Array | null;
  /** The log shard that fences the claim (the deployment's when it is first claimed). */
  logOrigin: string;
}

/** Inserts a pending claim; false when a row for (tenant, id) already exists. */
export async function insertClaim(db: D1Database, claim: NewClaim): Promise<boolean> {
  const result = await db
    .prepare(
      `INSERT INTO receipts (tenant, id, state, claimed_at, claim_token, lease_until, claim_digest, log_origin)
       VALUES (?, ?, 'pending', ?, ?, ?, ?, ?) ON CONFLICT (tenant, id) DO NOTHING`,
    )
    .bind(claim.tenant, claim.id, claim.now, claim.token, claim.leaseUntil, claim.digest, claim.logOrigin)
    .run();
  return result.meta.changes === 1;
}

/**
 * Takes over a pending claim whose lease has run out, held under `oldToken` (null for a claim made
 * before claims had tokens); false when its holder renewed it or another request took it first.
 */
export async function takeOverClaim(
  db: D1Database,
  claim: NewClaim,
  oldToken: string | null,
): Promise<boolean> {
  const result = await db
    .prepare(
      `UPDATE receipts SET claim_token = ?, lease_until = ?, claimed_at = ?
       WHERE tenant = ? AND id = ? AND state = 'pending' AND claim_token IS ? AND COALESCE(lease_until, 0) <= ?`,
    )
    .bind(claim.token, claim.leaseUntil, claim.now, claim.tenant, claim.id, oldToken, claim.now)
    .run();
  return result.meta.changes === 1;
}

/** The heartbeat: extends the holder's lease (never shortens it); false once the claim is no longer its. */
export async function renewLease(
  db: D1Database,
  tenant: string,
  id: string,
  token: string,
  leaseUntil: number,
): Promise<boolean> {
  const result = await db
    .prepare(
      `UPDATE receipts SET lease_until = MAX(COALESCE(lease_until, 0), ?)
       WHERE tenant = ? AND id = ? AND claim_token = ? AND state IN ('pending', 'signed')
         AND COALESCE(lease_until, 1) <> 0`,
    )
    .bind(leaseUntil, tenant, id, token)
    .run();
  return result.meta.changes === 1;
}

/**
 * Ends the holder's lease at once, so a retry need not wait it out: after a failed save, or a log
 * append whose outcome is unknown (the retry then asks the log).
 */
export async function endLease(db: D1Database, tenant: string, id: string, token: string): Promise<void> {
  await db
    .prepare(
      `UPDATE receipts SET lease_until = 0
       WHERE tenant = ? AND id = ? AND claim_token = ? AND state IN ('pending', 'signed')`,
    )
    .bind(tenant, id, token)
    .run();
}

/** Drops the holder's pending claim (its request failed before signing), freeing the id. */
export async function releaseClaim(db: D1Database, tenant: string, id: string, token: string): Promise<void> {
  await db
    .prepare("DELETE FROM receipts WHERE tenant = ? AND id = ? AND state = 'pending' AND claim_token = ?")
    .bind(tenant, id, token)
    .run();
}

/** What a holder records of its signed receipt before the log append: everything but index and proof. */
export type SignedClaim = SignedRow & {
  /** The holder's claim token, compared in the same statement. */
  token: string;
};

/**
 * Keeps a signed receipt whose log append failed: turns the holder's pending claim into 'signed' in
 * one statement that compares its token, so the exact retry logs this receipt (recover-signed.ts)
 * instead of calling the model again. (Rows of earlier versions were fenced this way before the append.)
 */
export async function fenceClaim(db: D1Database, row: SignedClaim): Promise<boolean> {
  const result = await db
    .prepare(
      `UPDATE receipts SET state = 'signed', ${SIGNED_ASSIGNMENTS}
       WHERE tenant = ? AND id = ? AND state = 'pending' AND claim_token = ?`,
    )
    .bind(...signedValues(row), row.tenant, row.id, row.token)
    .run();
  return result.meta.changes === 1;
}

/**
 * Saves the receipt the log shard holds for a pending claim (appended by its holder, or found there by
 * a taker; again, idempotently), dropping replay copies past their retention in the same round trip;
 * false when D1 holds no claim of the id. No token is compared: the shard logs one receipt per id, so
 * whoever writes it writes the same one.
 */
export async function issueClaim(db: D1Database, row: IssuedRow, now: number): Promise<boolean> {
  const issue = db
    .prepare(
      `UPDATE receipts SET state = 'issued', log_index = ?, proof = ?, ${SIGNED_ASSIGNMENTS},
         claim_token = NULL, lease_until = NULL
       WHERE tenant = ? AND id = ? AND (state = 'pending' OR (state = 'issued' AND jws = ?))`,
    )
    .bind(row.logIndex, row.proof, ...signedValues(row), row.tenant, row.id, row.jws);
  const [issued] = await db.batch([issue, purgeExpiredReplays(db, now)]);
  return issued?.meta.changes === 1;
}

/**
 * Marks a signed receipt issued with its log index and proof (by its holder, or by a retry that
 * recovered it from the log), dropping replay copies past their retention in the same round trip.
 */
export async function completeClaim(
  db: D1Database,
  done: { tenant: string; id: string; jws: string; logIndex: number; proof: string; now: number },
): Promise<void> {
  const complete = db
    .prepare(
      `UPDATE receipts SET state = 'issued', log_index = ?, proof = ?, claim_token = NULL, lease_until = NULL
       WHERE tenant = ? AND id = ? AND state = 'signed' AND jws = ?`,
    )
    .bind(done.logIndex, done.proof, done.tenant, done.id, done.jws);
  await db.batch([complete, purgeExpiredReplays(db, done.now)]);
}
