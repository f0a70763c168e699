import { decodeBase64Url } from '../encoding/base64';
import { ApiError } from '../errors';
import { entryHash } from '../log/merkle';
import { completeClaim } from '../storage/receipt-claims';
import type { StoredReceipt } from '../storage/receipts';
import type { ClaimDeps } from './claim-deps';

/**
 * Completes a receipt left 'signed' in D1 but never saved with its log index: by a holder whose log
 * append never answered (logged or not), or by an earlier version, which recorded every receipt so
 * before its append and then died, or failed to save, after or before it. The log's idempotent
 * append answers the index the entry already has, or appends it now for the first time, so the id
 * keeps exactly one logged receipt, the one signed under the claim, and is never signed again.
 */
export async function recoverSigned(
  row: StoredReceipt,
  deps: Pick<ClaimDeps, 'db' | 'now' | 'appendOnce'>,
): Promise<StoredReceipt> {
  const payload = decodeBase64Url(row.jws?.split('.')[1] ?? '');
  if (row.jws === null || row.log_origin === null || payload === null) {
    throw new ApiError('internal.error', `The signed receipt of ${row.id} is unreadable.`);
  }
  let logged: { index: number; proof: string };
  try {
    // The shard the holder chose, even if this deployment has since moved to another.
    logged = await deps.appendOnce(row.log_origin, entryHash(payload));
    await completeClaim(deps.db, {
      tenant: row.tenant,
      id: row.id,
      jws: row.jws,
      logIndex: logged.index,
      proof: logged.proof,
      now: deps.now(),
    });
  } catch (error) {
    throw new ApiError(
      'internal.unavailable',
      `The receipt of ${row.id} is signed but not yet saved; retry the same request to receive it.`,
      { details: { receiptId: row.id }, cause: error },
    );
  }
  return { ...row, state: 'issued', log_index: logged.index, proof: logged.proof };
}
