import type { LoggedClaim } from '../log/log-claims';
import type { IssuedRow, StoredReceipt } from '../storage/receipts';

/** The D1 row of a receipt the log shard `origin` holds for (tenant, id). */
export function issuedRowOf(tenant: string, id: string, origin: string, logged: LoggedClaim): IssuedRow {
  const { meta } = logged;
  return {
    tenant,
    id,
    saltGenerated: meta.saltGenerated,
    logOrigin: origin,
    logIndex: logged.index,
    kid: meta.kid,
    iat: meta.iat,
    provider: meta.provider,
    model: meta.model,
    region: meta.region,
    costUsd: meta.costUsd,
    jws: logged.jws,
    proof: logged.proof,
    replay: logged.replay,
    replayExpiresAt: meta.replayExpiresAt,
  };
}

/** An issued row as D1 answers it, for the replay of the receipt it carries. */
export function storedReceiptOf(row: IssuedRow): StoredReceipt {
  return {
    tenant: row.tenant,
    id: row.id,
    state: 'issued',
    claimed_at: row.iat,
    claim_token: null,
    lease_until: null,
    claim_digest: null,
    salt_generated: row.saltGenerated ? 1 : 0,
    log_origin: row.logOrigin,
    log_index: row.logIndex,
    kid: row.kid,
    iat: row.iat,
    provider: row.provider,
    model: row.model,
    region: row.region,
    cost_usd: row.costUsd,
    jws: row.jws,
    proof: row.proof,
    replay: row.replay === null ? null : new Uint8Array(row.replay).buffer,
    replay_expires_at: row.replayExpiresAt,
  };
}
