import type { ReasonRequest } from '../contracts/reason-request';
import { randomHex } from '../encoding/random-token';
import { ApiError } from '../errors';
import type { ClaimRegistration } from '../log/log-claims';
import { endLease, insertClaim, issueClaim, type NewClaim, takeOverClaim } from '../storage/receipt-claims';
import { findReceipt, type StoredReceipt } from '../storage/receipts';
import type { ClaimDeps, TakerClaim } from './claim-deps';
import { type ClaimDigests, claimDigests, sameClaimDigest } from './claim-digest';
import { type HeldClaim, holdClaim, LEASE_MS } from './held-claim';
import { issuedRowOf, storedReceiptOf } from './logged-receipt';
import { recoverSigned } from './recover-signed';
import { differentRequest, REPLAY_RETENTION_MS, replayOf } from './replay-of';

// Idempotency of a caller-chosen receiptId. A repeated receiptId of a tenant never issues a second
// receipt or calls the model twice: the first request claims the id in D1 before the model is called
// and keeps it alive with a heartbeat (held-claim.ts); a duplicate waits, polling with back-off, and
// then replays. The log shard is the fence: the holder's append carries its claim token, and the
// shard logs at most one receipt per (tenant, id), keeping it and its sealed replay copy with the
// entry in one transaction (log/log-claims.ts), so the hot path waits on the claim and the append only;
// the D1 completion follows behind the answer. A claim whose lease ran out is taken over only by the
// exact retry, which registers its token with the shard: the old holder's later append is refused,
// and a receipt the old holder already logged is saved in D1 and replayed instead of asking the model
// again. A receipt left signed in D1 (after an append whose answer was lost, or by earlier versions,
// which fenced there) is completed from the log (recover-signed.ts). The replay copy is sealed under
// the caller's salt (replay-of.ts); the claim keeps only a digest keyed under it (claim-digest.ts).
// docs/issuance.md tells the whole mechanism.

const FIRST_POLL_MS = 50;
const MAX_POLL_MS = 1_000;

export type ClaimOutcome = { kind: 'claimed'; claim: HeldClaim } | { kind: 'replay'; response: unknown };

function inProgress(id: string, row: StoredReceipt, now: number): ApiError {
  const seconds = Math.max(1, Math.ceil(((row.lease_until ?? now) - now) / 1000));
  return new ApiError('receipt.in_progress', `A request with receiptId ${id} is still in progress.`, {
    details: { receiptId: id, inProgress: true },
    headers: { 'Retry-After': String(seconds) },
  });
}

/**
 * Registers a taker with the claim's log shard, so the holder it took over from can no longer log;
 * answers the receipt that holder already logged (saved in D1 on the way), or null if there is none.
 */
async function registerTaker(
  origin: string,
  taker: TakerClaim,
  deps: ClaimDeps,
): Promise<StoredReceipt | null> {
  let registration: ClaimRegistration;
  try {
    registration = await deps.registerClaim(origin, taker);
  } catch (error) {
    // Unregistered, the old holder might still log: this request must not call the model. Its retry
    // may take the claim over at once and ask the log again.
    await endLease(deps.db, taker.tenant, taker.rid, taker.token).catch(() => undefined);
    throw new ApiError(
      'internal.unavailable',
      `The claim on receiptId ${taker.rid} could not be checked with the log; retry the same request.`,
      { details: { receiptId: taker.rid }, cause: error },
    );
  }
  if (registration.kind === 'registered') return null;
  const row = issuedRowOf(taker.tenant, taker.rid, origin, registration.logged);
  if (row.replay === null && !row.saltGenerated) {
    // The shard dropped its replay copy: the holder saved the receipt in D1 (under the taker's claim).
    const saved = await findReceipt(deps.db, taker.tenant, taker.rid);
    if (saved?.state === 'issued') return saved;
  }
  // If this save fails, the lease lapses and the next retry finds the same receipt in the log.
  if (await issueClaim(deps.db, row, deps.now()).catch(() => false)) deps.settleClaim(origin, taker);
  return storedReceiptOf(row);
}

/** The replay of an issued receipt for this request, or the 409 that says why there is none. */
async function replayed(
  row: StoredReceipt,
  request: ReasonRequest,
  tenant: string,
  deps: ClaimDeps,
): Promise<ClaimOutcome> {
  const outcome = await replayOf(row, request, tenant, deps.now());
  if (outcome instanceof ApiError) throw outcome;
  return outcome;
}

/** The claim just taken, with its heartbeat started; fenced by the log shard `logOrigin`. */
function held(fresh: NewClaim, logOrigin: string, digests: ClaimDigests, deps: ClaimDeps): ClaimOutcome {
  const claim = holdClaim({
    ...fresh,
    logOrigin,
    requestDigest: digests.request,
    db: deps.db,
    now: deps.now,
  });
  return { kind: 'claimed', claim };
}

/**
 * Takes over a pending claim whose lease lapsed, for the exact retry only; undefined when another
 * request renewed or took it first (the caller tries again).
 */
async function takeOver(
  row: StoredReceipt,
  fresh: NewClaim,
  digests: ClaimDigests,
  request: ReasonRequest,
  deps: ClaimDeps,
): Promise<ClaimOutcome | undefined> {
  // Only the exact retry may take over: anyone else would turn the id into a different request's.
  // A claim from before claims had tokens carries no digest and goes to whoever comes first.
  if (row.claim_token !== null && !sameClaimDigest(row.claim_digest, digests.claim))
    throw differentRequest(fresh.id);
  if (!(await takeOverClaim(deps.db, fresh, row.claim_token))) return undefined;
  const origin = row.log_origin ?? deps.logOrigin;
  const { tenant, id: rid, token } = fresh;
  const logged = await registerTaker(
    origin,
    { tenant, rid, token, expiresAt: fresh.now + REPLAY_RETENTION_MS },
    deps,
  );
  if (logged === null) return held(fresh, origin, digests, deps);
  return replayed(logged, request, tenant, deps);
}

/**
 * One try at the claim, at `now`: the claim, or the replay; the row of the request that still holds
 * the id, to wait for; undefined to try again at once.
 */
async function tryClaim(
  tenant: string,
  request: ReasonRequest & { receiptId: string },
  digests: ClaimDigests,
  now: number,
  deps: ClaimDeps,
): Promise<ClaimOutcome | StoredReceipt | undefined> {
  const id = request.receiptId;
  const fresh: NewClaim = {
    tenant,
    id,
    token: randomHex(16),
    now,
    leaseUntil: now + LEASE_MS,
    digest: digests.claim,
    logOrigin: deps.logOrigin,
  };
  if (await insertClaim(deps.db, fresh)) return held(fresh, deps.logOrigin, digests, deps);
  let row = await findReceipt(deps.db, tenant, id);
  if (row === null) return undefined; // released between the two queries
  // A claim made before leases existed counts as leased for LEASE_MS from its claim time.
  const stale = (row.lease_until ?? row.claimed_at + LEASE_MS) <= now;
  if (row.state === 'signed' && stale) row = await recoverSigned(row, deps);
  if (row.state === 'issued') return replayed(row, request, tenant, deps);
  if (row.state === 'pending' && stale) return takeOver(row, fresh, digests, request, deps);
  return row;
}

/** Claims `receiptId` for this request, or answers the replay of the request that already used it. */
export async function claimReceiptId(
  tenant: string,
  request: ReasonRequest & { receiptId: string },
  deps: ClaimDeps,
): Promise<ClaimOutcome> {
  const digests = await claimDigests(tenant, request);
  const deadline = deps.now() + deps.waitMs;
  let pollMs = FIRST_POLL_MS;
  for (;;) {
    const now = deps.now();
    const tried = await tryClaim(tenant, request, digests, now, deps);
    if (tried === undefined) continue;
    if ('kind' in tried) return tried;
    if (now >= deadline) throw inProgress(request.receiptId, tried, now);
    await deps.sleep(Math.min(pollMs, Math.max(1, deadline - now)));
    pollMs = Math.min(pollMs * 2, MAX_POLL_MS);
  }
}
