import type { ReasonRequest } from '../contracts/reason-request';
import type { MaybeSignedResponse } from '../contracts/reason-response';
import { logOriginFor } from '../log/log-settings';
import { countedD1, countedStub } from '../storage/round-trips';
import { stubByName } from '../storage/stub-by-name';
import type { ClaimDeps } from './claim-deps';
import { claimReceiptId } from './claim-receipt-id';
import type { HeldClaim } from './held-claim';
import type { IssueReceipt } from './issue-receipt';
import { type IssuanceIo, receiptHookFor } from './receipt-hook';

/** How long a duplicate waits for the first request with its receiptId before a 409 `receipt.in_progress`. */
const DUPLICATE_WAIT_MS = 30_000;

/** A request's claim: the stored answer a repeated receiptId replays, or the claim it now holds (none without a receiptId). */
export type Claimed = { replay: MaybeSignedResponse } | { replay?: undefined; claim?: HeldClaim };

/** Receipt issuance and idempotency for one tenant's request: the one door of issuance/ the pipeline uses. */
export interface Issuance {
  /** Claims the request's `receiptId` before the model is called, or answers the replay of the request that used it. */
  claim: (request: ReasonRequest) => Promise<Claimed>;
  /** The receipt hook of the request: signs, logs (fenced by `claim`) and keeps the receipt. */
  issuer: (claim: HeldClaim | undefined) => IssueReceipt;
}

/**
 * Issuance in this Worker for `tenant`: claims in D1 and the log shard that fences them, both counted
 * as the request's round trips; what follows the answer (the completion, the log's settlement) runs on
 * the uncounted bindings through `io.background`.
 */
export function createIssuance(env: Env, tenant: string, io: IssuanceIo): Issuance {
  const logOf = (origin: string) => countedStub(stubByName(env.RECEIPT_LOG, origin), io.trips, 'do:log');
  const claims: ClaimDeps = {
    db: countedD1(env.DB, io.trips, 'd1:claim'),
    now: Date.now,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    waitMs: DUPLICATE_WAIT_MS,
    appendOnce: async (origin, entry) => {
      const { index, proof } = await logOf(origin).appendOnce(entry);
      return { index, proof };
    },
    logOrigin: logOriginFor(env, tenant, Date.now()),
    registerClaim: (origin, claim) => logOf(origin).registerClaim(claim),
    settleClaim: (origin, { tenant, rid }) =>
      io.background(() => stubByName(env.RECEIPT_LOG, origin).settleClaim({ tenant, rid })),
  };
  return {
    claim: async (request) => {
      const { receiptId } = request;
      if (receiptId === undefined) return {};
      const claimed = await claimReceiptId(tenant, { ...request, receiptId }, claims);
      // The stored copy is an answer this pipeline returned, opened with the caller's own salt.
      if (claimed.kind === 'replay') return { replay: claimed.response as MaybeSignedResponse };
      return { claim: claimed.claim };
    },
    issuer: (claim) => receiptHookFor(env, tenant, io, claim),
  };
}
