import { ApiError } from '../errors';
import type { ClaimedAppend } from '../log/log-claims';
import type { ReceiptLog } from '../log/receipt-log';
import { fenceClaim, issueClaim } from '../storage/receipt-claims';
import type { SignedRow } from '../storage/receipts';
import { type HeldClaim, letGo } from './held-claim';
import { issuedRowOf } from './logged-receipt';
import { REPLAY_RETENTION_MS } from './replay-of';

function lostClaim(id: string): ApiError {
  return new ApiError(
    'receipt.conflict',
    `This request lost its claim on receiptId ${id} to another request; no receipt was issued for it.`,
    { details: { receiptId: id, claimLost: true } },
  );
}

/**
 * The claimed append: logs the receipt only if this request still holds its claim on the id (the log
 * shard compares the claim token). Throws if it lost the claim, or if another request's receipt was
 * logged for the id meanwhile (its D1 row is saved here, for the caller's retry to replay).
 */
export async function appendClaimed(
  claim: HeldClaim,
  log: DurableObjectStub<ReceiptLog>,
  entry: Uint8Array,
  signed: SignedRow,
): Promise<{ index: number; proof: string }> {
  claim.logging();
  let answer: ClaimedAppend;
  try {
    answer = await log.appendClaimed({
      tenant: claim.tenant,
      rid: claim.id,
      token: claim.token,
      entry,
      jws: signed.jws,
      replay: signed.replay,
      meta: {
        saltGenerated: signed.saltGenerated,
        kid: signed.kid,
        iat: signed.iat,
        provider: signed.provider,
        model: signed.model,
        region: signed.region,
        costUsd: signed.costUsd,
        replayExpiresAt: signed.replayExpiresAt,
      },
      expiresAt: signed.iat + REPLAY_RETENTION_MS,
    });
  } catch (error) {
    await keepSigned(claim, signed);
    throw new ApiError(
      'internal.unavailable',
      `The receipt of ${claim.id} is signed but could not be logged; retry the same request to receive it.`,
      { details: { receiptId: claim.id }, cause: error },
    );
  }
  if (answer.kind === 'lost') throw lostClaim(claim.id);
  if (answer.kind === 'logged-by-other') {
    const row = issuedRowOf(claim.tenant, claim.id, signed.logOrigin, answer.logged);
    await issueClaim(claim.db, row, claim.now()).catch(() => undefined);
    throw new ApiError(
      'receipt.in_progress',
      `Another request with receiptId ${claim.id} was issued its receipt first; retry the same request to receive it.`,
      { details: { receiptId: claim.id, inProgress: true }, headers: { 'Retry-After': '1' } },
    );
  }
  return { index: answer.index, proof: answer.proof };
}

/**
 * After an append whose outcome is unknown: keeps the signed receipt over the claim in D1 (comparing
 * the token), so the exact retry logs this one, or finds it logged, instead of calling the model again.
 */
async function keepSigned(claim: HeldClaim, signed: SignedRow): Promise<void> {
  try {
    if (await fenceClaim(claim.db, { ...signed, token: claim.token })) await letGo(claim);
  } catch {
    // The claim stays pending; its lease ends (see release) and the retry asks the log.
  }
}
