import { writeReceiptRow } from '../background/write-behind';
import type { ReasonRequest } from '../contracts/reason-request';
import { utf8 } from '../encoding/utf8';
import { ApiError } from '../errors';
import { logOriginOf } from '../log/receipt-log';
import { sealReplay } from '../receipts/replay-seal';
import { serviceKeysOf } from '../receipts/service-keys';
import { completeClaim, endLease, fenceClaim } from '../storage/receipt-claims';
import type { IssuedRow } from '../storage/receipts';
import { countedStub, type RoundTrips } from '../storage/round-trips';
import type { HeldClaim } from './held-claim';
import { REPLAY_RETENTION_MS, replayAad } from './idempotency';
import { issueReceipt } from './issue-receipt';
import { requestDigest } from './request-digest';
import type { IssueReceipt, UnsignedResponse } from './run-reason';

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

/** The request's round trips, and its work behind the answer. */
export interface ReceiptHookIo {
  trips: RoundTrips;
  background: (work: () => Promise<unknown> | undefined) => void;
}

/**
 * The pipeline's receipt hook for one tenant: issue (commit, sign, log), then keep the metadata and,
 * for a caller's receiptId with the caller's salt, the sealed replay copy in D1. With a claim (a caller-chosen
 * receiptId), the signed receipt is fenced into the claim before it is logged and completed after,
 * behind the answer: a request that lost its claim never logs, and one whose save fails leaves
 * the receipt for its retry to recover, never to sign again. Without one, the row is written behind
 * the answer, batched with the usage rows, with no replay copy: nobody can send a generated id back.
 */
export function receiptHookFor(env: Env, tenant: string, io: ReceiptHookIo, claim?: HeldClaim): IssueReceipt {
  return async (request: ReasonRequest, response) => {
    // A caller's receiptId is issued only under its claim (serve-reason always takes one first), so
    // there is one way to record a claimed receipt: the fence.
    if (request.receiptId !== undefined && claim === undefined) {
      throw new Error('a caller receiptId is issued only under its claim');
    }
    const origin = logOriginOf(env);
    const keys = await serviceKeysOf(env, origin);
    const log = countedStub(env.RECEIPT_LOG.getByName(origin), io.trips, 'do:log');
    const meta = {
      provider: response.model.provider,
      model: response.model.model,
      region: response.model.region,
      costUsd: response.costUsd,
    };
    const sealFor = (salt: string, receipt: object) =>
      sealReplay(
        salt,
        response.receiptId,
        utf8(JSON.stringify({ ...response, receipt })),
        replayAad(tenant, response.receiptId, requestDigest(request)),
      );
    let fenced = false;
    const issuing = issueReceipt(request, response, {
      signingKey: keys.receiptKey,
      issuer: keys.issuer,
      tenant,
      now: Date.now,
      appendToLog: async (entry) => {
        const { index, proof } = claim ? await log.appendOnce(entry) : await log.append(entry);
        return { index, proof };
      },
      beforeLog:
        claim &&
        (async (signed) => {
          await fence(claim, request, response, signed, { origin, kid: keys.receiptKey.kid, meta, sealFor });
          fenced = true;
        }),
    });
    const issued = await issuing.catch(async (error: unknown) => {
      // Signed under the claim but not logged: the retry need not wait out the lease to append it.
      if (claim && fenced) await letGo(claim);
      throw error;
    });
    if (claim) {
      // Signed, fenced under the claim and logged: the answer need not wait for the completion. If it
      // fails, the row stays 'signed' and the exact retry recovers this same receipt from the log.
      const { jws, proof } = issued.receipt;
      const completing = complete(claim, jws, issued.logIndex, proof)
        .catch(() =>
          console.error(JSON.stringify({ event: 'receipt.completion_failed', receiptId: claim.id })),
        )
        .finally(() => pendingCompletions.delete(completing));
      pendingCompletions.add(completing);
      io.background(() => completing);
      return issued.receipt;
    }
    // No replay copy: a replay needs the caller to send this id back, and callers cannot send the
    // version 8 ids Valve generates.
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
      proof: issued.receipt.proof,
      replay: null,
      replayExpiresAt: null,
    };
    io.background(() => writeReceiptRow(env.DB, row));
    return issued.receipt;
  };
}

interface FenceContext {
  origin: string;
  kid: string;
  meta: { provider: string; model: string; region: string; costUsd: number };
  sealFor: (salt: string, receipt: object) => Promise<Uint8Array>;
}

/** Records the signed receipt over the holder's claim, comparing its token; throws if it lost the claim. */
async function fence(
  claim: HeldClaim,
  request: ReasonRequest,
  response: UnsignedResponse,
  signed: { jws: string; iat: number; salt: string },
  context: FenceContext,
): Promise<void> {
  // Sealed before the append, so a retry that recovers the receipt can replay it; the proof is added then.
  const replay =
    request.receiptSalt === undefined ? null : await context.sealFor(signed.salt, { jws: signed.jws });
  const fenced = await fenceClaim(claim.db, {
    tenant: claim.tenant,
    id: response.receiptId,
    token: claim.token,
    saltGenerated: request.receiptSalt === undefined,
    logOrigin: context.origin,
    kid: context.kid,
    iat: signed.iat,
    ...context.meta,
    jws: signed.jws,
    replay,
    replayExpiresAt: replay === null ? null : signed.iat + REPLAY_RETENTION_MS,
  });
  if (!fenced) throw lostClaim(response.receiptId);
}

/**
 * Saves the log index and proof, behind the answer; if that fails, the lease ends now and the row stays
 * 'signed' for the retry to complete from the log.
 */
async function complete(claim: HeldClaim, jws: string, logIndex: number, proof: string): Promise<void> {
  try {
    await completeClaim(claim.db, {
      tenant: claim.tenant,
      id: claim.id,
      jws,
      logIndex,
      proof,
      now: claim.now(),
    });
  } catch (error) {
    await letGo(claim);
    throw new ApiError(
      'internal.unavailable',
      `The receipt of ${claim.id} is signed and logged but could not be saved; retry the same request to receive it.`,
      { details: { receiptId: claim.id }, cause: error },
    );
  }
}

/** Ends a signed claim's lease now, so its retry need not wait; if this write fails too, it lapses by itself. */
async function letGo(claim: HeldClaim): Promise<void> {
  claim.stop();
  await endLease(claim.db, claim.tenant, claim.id, claim.token).catch(() => undefined);
}
