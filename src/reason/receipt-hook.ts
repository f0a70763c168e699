import { writeReceiptRow } from '../background/write-behind';
import type { ReasonRequest } from '../contracts/reason-request';
import { utf8 } from '../encoding/utf8';
import { logOriginOf } from '../log/receipt-log';
import { sealReplay } from '../receipts/replay-seal';
import { serviceKeysOf } from '../receipts/service-keys';
import { type IssuedRow, saveIssuedReceipt } from '../storage/receipts';
import { countedStub, type RoundTrips } from '../storage/round-trips';
import { REPLAY_RETENTION_MS, replayAad, requestDigest } from './idempotency';
import { issueReceipt } from './issue-receipt';
import type { IssueReceipt } from './run-reason';

/** The request's round trips, and its work behind the answer. */
export interface ReceiptHookIo {
  trips: RoundTrips;
  background: (work: () => Promise<unknown>) => void;
}

/**
 * The pipeline's receipt hook for one tenant: issue (commit, sign, log), then keep the metadata and,
 * when the caller chose the salt, the sealed replay copy in D1. With a caller `receiptId` the row is
 * written before the answer leaves (it completes the request's claim); without one it is written
 * behind the answer, batched with the usage rows, since no request can replay an id nobody has seen.
 */
export function receiptHookFor(env: Env, tenant: string, io: ReceiptHookIo): IssueReceipt {
  return async (request: ReasonRequest, response) => {
    const origin = logOriginOf(env);
    const keys = await serviceKeysOf(env, origin);
    const log = countedStub(env.RECEIPT_LOG.getByName(origin), io.trips, 'do:log');
    const issued = await issueReceipt(request, response, {
      signingKey: keys.receiptKey,
      issuer: keys.issuer,
      now: Date.now,
      appendToLog: async (entry) => {
        const { index, proof } = await log.append(entry);
        return { index, proof };
      },
    });
    const replay = issued.saltGenerated
      ? null
      : await sealReplay(
          issued.salt,
          issued.rid,
          utf8(JSON.stringify({ ...response, receipt: issued.receipt })),
          replayAad(tenant, issued.rid, requestDigest(request)),
        );
    const row: IssuedRow = {
      tenant,
      id: issued.rid,
      saltGenerated: issued.saltGenerated,
      logOrigin: origin,
      logIndex: issued.logIndex,
      kid: issued.kid,
      iat: issued.iat,
      provider: response.model.provider,
      model: response.model.model,
      region: response.model.region,
      costUsd: response.costUsd,
      jws: issued.receipt.jws,
      proof: issued.receipt.proof,
      replay,
      replayExpiresAt: replay === null ? null : issued.iat + REPLAY_RETENTION_MS,
    };
    if (request.receiptId === undefined) io.background(() => writeReceiptRow(env.DB, row));
    else await io.trips.time('d1:receipt', () => saveIssuedReceipt(env.DB, row));
    return issued.receipt;
  };
}
