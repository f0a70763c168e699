import { writeReceiptRow } from '../background/write-behind';
import type { UnsignedResponse } from '../contracts/reason-response';
import { utf8 } from '../encoding/utf8';
import { logOriginFor, logOriginOf } from '../log/log-settings';
import { sealReplay } from '../receipts/replay-seal';
import type { ServiceKeys } from '../receipts/service-keys';
import { serviceKeysOf } from '../receipts/service-keys';
import type { IssuedRow, SignedRow } from '../storage/receipts';
import { countedStub, type RoundTrips } from '../storage/round-trips';
import { stubByName } from '../storage/stub-by-name';
import { appendClaimed } from './claimed-append';
import { completeClaimedBehind } from './complete-claimed';
import type { HeldClaim } from './held-claim';
import { type IssuedReceipt, type IssueReceipt, issueReceipt } from './issue-receipt';
import { REPLAY_RETENTION_MS, replayAad } from './replay-of';

/** The request's round trips, and its work behind the answer. */
export interface IssuanceIo {
  trips: RoundTrips;
  background: (work: () => Promise<unknown> | undefined) => void;
}

/** What D1 keeps of a receipt besides its signature: the model that answered and what it cost. */
function metaOf(response: UnsignedResponse) {
  const { provider, model, region } = response.model;
  return { provider, model, region, costUsd: response.costUsd };
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
export function receiptHookFor(env: Env, tenant: string, io: IssuanceIo, claim?: HeldClaim): IssueReceipt {
  return async (request, response) => {
    // A caller's receiptId is issued only under its claim (issuance always takes one first), so
    // there is one way to record a claimed receipt: the claimed append.
    if (request.receiptId !== undefined && claim === undefined) {
      throw new Error('a caller receiptId is issued only under its claim');
    }
    // A claimed receipt goes to the shard its claim named; any other to its tenant's shard now.
    const origin = claim?.logOrigin ?? logOriginFor(env, tenant, Date.now());
    const keys = await serviceKeysOf(env, logOriginOf(env));
    const log = countedStub(stubByName(env.RECEIPT_LOG, origin), io.trips, 'do:log');
    const issuer = { signingKey: keys.receiptKey, issuer: keys.issuer, tenant, now: Date.now };
    if (claim === undefined) {
      const issued = await issueReceipt(request, response, {
        ...issuer,
        appendToLog: async (entry) => {
          const { index, proof } = await log.append(entry);
          return { index, proof };
        },
      });
      io.background(() => writeReceiptRow(env.DB, plainRowOf(tenant, origin, issued, response)));
      return issued.receipt;
    }
    let signed: SignedRow | undefined;
    const issued = await issueReceipt(request, response, {
      ...issuer,
      // Sealed before the append, so a retry that recovers the receipt can replay it; the proof is added then.
      beforeLog: async ({ jws, iat, salt }) => {
        const at = { tenant, origin, keys, response, requestDigest: claim.requestDigest };
        signed = await signedRowOf(at, { jws, iat, salt });
      },
      appendToLog: (entry) => {
        // issueReceipt runs beforeLog first; a claimed receipt never goes to the plain append.
        if (signed === undefined) throw new Error('a claimed receipt is logged only once sealed');
        return appendClaimed(claim, log, entry, signed);
      },
    });
    if (signed === undefined) throw new Error('a claimed receipt is logged only once sealed');
    // Logged under the claim: the answer need not wait for the completion. If it fails, the lease
    // ends and the exact retry takes the claim over and finds this same receipt in the log.
    const { jws, proof } = issued.receipt;
    const row: IssuedRow = { ...signed, logIndex: issued.logIndex, jws, proof };
    // Behind the answer, so on the uncounted bindings.
    const settle = () => stubByName(env.RECEIPT_LOG, origin).settleClaim({ tenant, rid: claim.id });
    completeClaimedBehind(claim, env.DB, row, settle, io.background);
    return issued.receipt;
  };
}

/** A claimed receipt as signed, with its replay copy sealed under the caller's salt (none for Valve's). */
async function signedRowOf(
  at: {
    tenant: string;
    origin: string;
    keys: ServiceKeys;
    response: UnsignedResponse;
    /** The claim's digest of the request: null exactly when Valve drew the salt (no replay copy then). */
    requestDigest: Uint8Array | null;
  },
  { jws, iat, salt }: { jws: string; iat: number; salt: string },
): Promise<SignedRow> {
  const { tenant, response, requestDigest } = at;
  const replay =
    requestDigest === null
      ? null
      : await sealReplay(
          salt,
          response.receiptId,
          utf8(JSON.stringify({ ...response, receipt: { jws } })),
          replayAad(tenant, response.receiptId, requestDigest),
        );
  return {
    tenant,
    id: response.receiptId,
    saltGenerated: requestDigest === null,
    logOrigin: at.origin,
    kid: at.keys.receiptKey.kid,
    iat,
    ...metaOf(response),
    jws,
    replay,
    replayExpiresAt: replay === null ? null : iat + REPLAY_RETENTION_MS,
  };
}

/**
 * The row of a receipt without a caller's receiptId. No replay copy: a replay needs the caller to send
 * this id back, and callers cannot send the version 8 ids Valve generates. No proof either: the log
 * serves a fresher one on request, and the proof was half of the row's bytes.
 */
function plainRowOf(
  tenant: string,
  origin: string,
  issued: IssuedReceipt,
  response: UnsignedResponse,
): IssuedRow {
  return {
    tenant,
    id: issued.rid,
    saltGenerated: issued.saltGenerated,
    logOrigin: origin,
    logIndex: issued.logIndex,
    kid: issued.kid,
    iat: issued.iat,
    ...metaOf(response),
    jws: issued.receipt.jws,
    proof: null,
    replay: null,
    replayExpiresAt: null,
  };
}
