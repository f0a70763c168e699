// D1 queries of the receipts table (migrations/0003_receipts.sql, 0004_receipt_claims.sql): metadata and
// replay copies; the claims of caller-chosen ids are in receipt-claims.ts.

import { type InsertShape, multiRowInserts } from './multi-row-insert';

export interface StoredReceipt {
  tenant: string;
  id: string;
  /** 'pending': claimed, nothing signed; 'signed': fenced, its log entry may or may not be in; 'issued'. */
  state: 'pending' | 'signed' | 'issued';
  claimed_at: number;
  claim_token: string | null;
  lease_until: number | null;
  claim_digest: ArrayBuffer | null;
  salt_generated: number | null;
  log_origin: string | null;
  log_index: number | null;
  kid: string | null;
  iat: number | null;
  provider: string | null;
  model: string | null;
  region: string | null;
  cost_usd: number | null;
  jws: string | null;
  proof: string | null;
  replay: ArrayBuffer | null;
  replay_expires_at: number | null;
}

export interface IssuedRow {
  tenant: string;
  id: string;
  saltGenerated: boolean;
  logOrigin: string;
  logIndex: number;
  kid: string;
  iat: number;
  provider: string;
  model: string;
  region: string;
  costUsd: number;
  jws: string;
  /** Null for a row written behind its answer: GET /v1/receipts/{id} asks the log for a proof. */
  proof: string | null;
  replay: Uint8Array | null;
  replayExpiresAt: number | null;
}

export async function findReceipt(db: D1Database, tenant: string, id: string): Promise<StoredReceipt | null> {
  return db
    .prepare('SELECT * FROM receipts WHERE tenant = ? AND id = ?')
    .bind(tenant, id)
    .first<StoredReceipt>();
}

/** A receipt as signed, before its log index and proof: the columns every write of one fills. */
export type SignedRow = Omit<IssuedRow, 'logIndex' | 'proof'>;

/** The columns a signed receipt fills, in the order `signedValues` binds them. */
const SIGNED_COLUMNS = [
  'salt_generated',
  'log_origin',
  'kid',
  'iat',
  'provider',
  'model',
  'region',
  'cost_usd',
  'jws',
  'replay',
  'replay_expires_at',
] as const;

/** `column = ?, …` of every signed column, for an UPDATE that writes a signed receipt over a claim. */
export const SIGNED_ASSIGNMENTS = SIGNED_COLUMNS.map((column) => `${column} = ?`).join(', ');

/** The values of the signed columns, in `SIGNED_COLUMNS` order. */
export function signedValues(row: SignedRow): unknown[] {
  return [
    row.saltGenerated ? 1 : 0,
    row.logOrigin,
    row.kid,
    row.iat,
    row.provider,
    row.model,
    row.region,
    row.costUsd,
    row.jws,
    row.replay,
    row.replayExpiresAt,
  ];
}

const ISSUED_INSERT: InsertShape = {
  head: `INSERT INTO receipts (tenant, id, state, claimed_at, log_index, proof, ${SIGNED_COLUMNS.join(', ')}) VALUES`,
  row: `(?, ?, 'issued', ?, ?, ?, ${SIGNED_COLUMNS.map(() => '?').join(', ')})`,
  tail: 'ON CONFLICT (tenant, id) DO NOTHING',
};

/**
 * The statements that record the receipts of requests without a receiptId (Valve-generated ids,
 * written behind the answer), as many to a statement as D1 allows: each only as a new row, never over
 * anyone's claim. Claimed receipts are fenced and completed in receipt-claims.ts.
 */
export function issuedReceiptStatements(db: D1Database, rows: readonly IssuedRow[]): D1PreparedStatement[] {
  return multiRowInserts(
    db,
    ISSUED_INSERT,
    rows.map((row) => [row.tenant, row.id, row.iat, row.logIndex, row.proof, ...signedValues(row)]),
  );
}

/** Drops the replay copies whose retention ended by `now`. */
export function purgeExpiredReplays(db: D1Database, now: number): D1PreparedStatement {
  return db
    .prepare('UPDATE receipts SET replay = NULL WHERE replay IS NOT NULL AND replay_expires_at <= ?')
    .bind(now);
}
