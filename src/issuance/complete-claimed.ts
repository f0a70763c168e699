import { ApiError } from '../errors';
import { issueClaim } from '../storage/receipt-claims';
import type { IssuedRow } from '../storage/receipts';
import { type HeldClaim, letGo } from './held-claim';

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

/**
 * Completes a claimed receipt in D1 behind the answer, kept alive by `background` and tracked until
 * written; a failure is logged by id only (the exact retry completes it from the log).
 */
export function completeClaimedBehind(
  claim: HeldClaim,
  db: D1Database,
  row: IssuedRow,
  settle: () => Promise<void>,
  background: (work: () => Promise<unknown> | undefined) => void,
): void {
  const completing = completeClaimed(claim, db, row, settle)
    .catch(() => console.error(JSON.stringify({ event: 'receipt.completion_failed', receiptId: claim.id })))
    .finally(() => pendingCompletions.delete(completing));
  pendingCompletions.add(completing);
  background(() => completing);
}

/**
 * Saves the log index and proof, behind the answer, then lets the log shard drop its replay copy; if
 * the save fails, the lease ends now and the claim stays pending for the retry to complete from the log.
 */
async function completeClaimed(
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
