import type { ReasonRequest } from '../contracts/reason-request';
import { utf8 } from '../encoding/utf8';
import { logOriginOf } from '../log/receipt-log';
import { sealReplay } from '../receipts/replay-seal';
import { serviceKeysOf } from '../receipts/service-keys';
import { saveIssuedReceipt } from '../storage/receipts';
import { REPLAY_RETENTION_MS, replayAad, requestDigest } from './idempotency';
import { issueReceipt } from './issue-receipt';
import type { IssueReceipt } from './run-reason';

/**
 * The pipeline's receipt hook for one tenant: issue (commit, sign, log), then keep the metadata and,
 * when the caller chose the salt, the sealed replay copy in D1, before the answer leaves.
 */
export function receiptHookFor(env: Env, tenant: string): IssueReceipt {
  return async (request: ReasonRequest, response) => {
    const origin = logOriginOf(env);
    const keys = await serviceKeysOf(env, origin);
    const log = env.RECEIPT_LOG.getByName(origin);
    const issued = await issueReceipt(request, response, {
      signingKey: keys.receiptKey,
      issuer: keys.issuer,
      tenant,
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
    await saveIssuedReceipt(env.DB, {
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
    });
    return issued.receipt;
  };
}
