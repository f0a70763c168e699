import { writeReceiptRow } from '../background/write-behind';
import type { ReasonRequest } from '../contracts/reason-request';
import { utf8 } from '../encoding/utf8';
import { ApiError } from '../errors';
import type { ClaimedAppend } from '../log/log-claims';
import { logOriginFor, logOriginOf } from '../log/log-settings';
import type { ReceiptLog } from '../log/receipt-log';
import { sealReplay } from '../receipts/replay-seal';
import { serviceKeysOf } from '../receipts/service-keys';
import { endLease, fenceClaim, issueClaim } from '../storage/receipt-claims';
import type { IssuedRow, SignedRow } from '../storage/receipts';
import { countedStub, type RoundTrips } from '../storage/round-trips';
import { stubByName } from '../storage/stub-by-name';
import type { HeldClaim } from './held-claim';
import { REPLAY_RETENTION_MS, replayAad } from './idempotency';
import { issueReceipt } from './issue-receipt';
import { issuedRowOf } from './logged-receipt';
import { requestDigest } from './request-digest';
import type { IssueReceipt } from './run-reason';

function lostClaim(id: string): ApiError {
  return new ApiError(
    'receipt.conflict',
    `This request lost its claim on receiptId ${id} to another request; no receipt was issued for it.`,
    { details: { receiptId: id, claimLost: true } },
  );
}

/** This isolate's claim completions still being written behind their answers. */
const pendingCompletions = new Set<Promise<unknown>>();

/** Resolves once every claim completion this isolate has under way is written (or has failed). */
export async function completionsWritten(): Promise<void> {
  await Promise.allSettled([...pendingCompletions]);
}

/** Whether a claim completion of this isolate is still being written. */
export function completionsPending(): boolean {
  return pendingCompletions.size > 0;
}

/** The request's round trips, and its work behind the answer. */
export interface ReceiptHookIo {
  trips: RoundTrips;
  background: (work: () => Promise<unknown> | undefined) => void;
}

/**
 * The pipeline's receipt hook for one tenant: issue (commit, sign, log), then keep the metadata and,
 * for a caller's receiptId with the caller's salt, the sealed replay copy in D1. With a claim (a
 * caller-chosen receiptId), the log shard is the fence: its append logs the receipt only while the
 * claim is this request's, and keeps the receipt and its replay copy with the entry, so the claim is
 * completed in D1 behind the answer and a retry recovers the receipt from the log if that fails.
 * Without one, the row is written behind the answer, batched with the usage rows, with no replay
 * copy: nobody can send a generated id back.
 */
export function receiptHookFor(env: Env, tenant: string, io: ReceiptHookIo, claim?: HeldClaim): IssueReceipt {
  return async (request: ReasonRequest, response) => {
    // A caller's receiptId is issued only under its claim (serve-reason always takes one first), so
    // there is one way to record a claimed receipt: the claimed append.
    if (request.receiptId !== undefined && claim === undefined) {
      throw new Error('a caller receiptId is issued only under its claim');
    }
    // A claimed receipt goes to the shard its claim named; any other to its tenant's shard now.
    const origin = claim?.logOrigin ?? logOriginFor(env, tenant, Date.now());
    const keys = await serviceKeysOf(env, logOriginOf(env));
    const log = countedStub(stubByName(env.RECEIPT_LOG, origin), io.trips, 'do:log');
    const meta = {
      provider: response.model.provider,
      model: response.model.model,
      region: response.model.region,
      costUsd: response.costUsd,
    };
    let signed: SignedRow | undefined;
    const issuing = issueReceipt(request, response, {
      signingKey: keys.receiptKey,
      issuer: keys.issuer,
      tenant,
      now: Date.now,
      appendToLog: async (entry) => {
        if (claim === undefined) {
          const { index, proof } = await log.append(entry);
          return { index, proof };
        }
        // issueReceipt runs beforeLog first; a claimed receipt never goes to the plain append.
        if (signed === undefined) throw new Error('a claimed receipt is logged only once sealed');
        return appendClaimed(claim, log, entry, signed);
      },
      beforeLog:
        claim &&
        (async ({ jws, iat, salt }) => {
          // Sealed before the append, so a retry that recovers the receipt can replay it; the proof is added then.
          const replay =
            request.receiptSalt === undefined
              ? null
              : await sealReplay(
                  salt,
                  response.receiptId,
                  utf8(JSON.stringify({ ...response, receipt: { jws } })),
                  replayAad(tenant, response.receiptId, requestDigest(request)),
                );
          signed = {
            tenant,
            id: response.receiptId,
            saltGenerated: request.receiptSalt === undefined,
            logOrigin: origin,
            kid: keys.receiptKey.kid,
            iat,
            ...meta,
            jws,
            replay,
            replayExpiresAt: replay === null ? null : iat + REPLAY_RETENTION_MS,
          };
        }),
    });
    const issued = await issuing;
    if (claim && signed) {
      // Logged under the claim: the answer need not wait for the completion. If it fails, the lease
      // ends and the exact retry takes the claim over and finds this same receipt in the log.
      const { jws, proof } = issued.receipt;
      const row: IssuedRow = { ...signed, logIndex: issued.logIndex, jws, proof };
      const settle = () => stubByName(env.RECEIPT_LOG, origin).settleClaim({ tenant, rid: claim.id });
      // Behind the answer, so on the uncounted binding.
      const completing = complete(claim, env.DB, row, settle)
        .catch(() =>
          console.error(JSON.stringify({ event: 'receipt.completion_failed', receiptId: claim.id })),
        )
        .finally(() => pendingCompletions.delete(completing));
      pendingCompletions.add(completing);
      io.background(() => completing);
      return issued.receipt;
    }
    // No replay copy: a replay needs the caller to send this id back, and callers cannot send the
    // version 8 ids Valve generates. No proof either: the log serves a fresher one on request, and
    // the proof was half of the row's bytes.
    const row: IssuedRow = {
      tenant,
      id: issued.rid,
      saltGenerated: issued.saltGenerated,
      logOrigin: origin,
      logIndex: issued.logIndex,
      kid: issued.kid,
      iat: issued.iat,
      ...meta,
      jws: issued.receipt.jws,
      proof: null,
      replay: null,
      replayExpiresAt: null,
    };
    io.background(() => writeReceiptRow(env.DB, row));
    return issued.receipt;
  };
}

/**
 * The claimed append: logs the receipt only if this request still holds its claim on the id (the log
 * shard compares the claim token). Throws if it lost the claim, or if another request's receipt was
 * logged for the id meanwhile (its D1 row is saved here, for the caller's retry to replay).
 */
async function appendClaimed(
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

/**
 * Saves the log index and proof, behind the answer, then lets the log shard drop its replay copy; if
 * the save fails, the lease ends now and the claim stays pending for the retry to complete from the log.
 */
async function complete(
  claim: HeldClaim,
  db: D1Database,
  row: IssuedRow,
  settle: () => Promise<void>,
): Promise<void> {
  let saved: boolean;
  try {
    saved = await issueClaim(db, row, claim.now());
  } catch (error) {
    await letGo(claim, db);
    throw new ApiError(
      'internal.unavailable',
      `The receipt of ${claim.id} is logged but could not be saved; retry the same request to receive it.`,
      { details: { receiptId: claim.id }, cause: error },
    );
  }
  // Only once D1 holds it: the shard keeps the receipt of a claim gone from D1.
  if (saved) await settle().catch(() => undefined);
}

/** Ends a claim's lease now, so its retry need not wait; if this write fails too, it lapses by itself. */
async function letGo(claim: HeldClaim, db = claim.db): Promise<void> {
  claim.stop();
  await endLease(db, claim.tenant, claim.id, claim.token).catch(() => undefined);
}
