import type { ReasonRequest } from '../contracts/reason-request';
import type { ReasonResponse, UnsignedResponse } from '../contracts/reason-response';
import { utf8 } from '../encoding/utf8';
import { entryHash } from '../log/merkle';
import { commitAll, generateReceiptSalt } from '../receipts/commitments';
import { canonicalJsonAsSent } from '../receipts/jcs';
import { signReceiptPayload } from '../receipts/jws';
import { buildReceiptBody } from '../receipts/receipt-body';
import { receiptValuesV2 } from '../receipts/receipt-fields';
import type { Ed25519SigningKey } from '../signing/keys';

export type Receipt = NonNullable<ReasonResponse['receipt']>;

/** The pipeline's receipt hook: signs and logs the receipt of its finished answer (receipt-hook.ts). */
export type IssueReceipt = (
  request: ReasonRequest,
  response: UnsignedResponse,
) => Promise<ReasonResponse['receipt']>;

/** A receipt as issued, with what D1 keeps of it (never content) and the salt for the replay copy. */
export interface IssuedReceipt {
  receipt: Receipt;
  rid: string;
  iat: number;
  kid: string;
  logIndex: number;
  /** The salt used; kept only in memory, to seal the replay copy. */
  salt: string;
  saltGenerated: boolean;
}

export interface ReceiptIssuer {
  signingKey: Ed25519SigningKey;
  issuer: string;
  /** The tenant the receipt is issued to; the receipt commits to it under the caller's salt. */
  tenant: string;
  now: () => number;
  /** Appends a 32-byte entry hash to the log and answers its index and tlog-proof. */
  appendToLog: (entry: Uint8Array) => Promise<{ index: number; proof: string }>;
  /**
   * Runs between signing and logging: the claim's fence, which throws when this request no longer
   * holds its caller's receiptId, so a receipt that is not the id's one never reaches the log.
   */
  beforeLog?: (signed: { jws: string; iat: number; salt: string }) => Promise<void>;
}

/** Commits to every v2 name (fields, tenant, each item), signs the body, and logs it. */
export async function issueReceipt(
  request: ReasonRequest,
  response: UnsignedResponse,
  issuer: ReceiptIssuer,
): Promise<IssuedReceipt> {
  const saltGenerated = request.receiptSalt === undefined;
  const salt = request.receiptSalt ?? generateReceiptSalt();
  const rid = response.receiptId;
  const { names, values } = receiptValuesV2(request, response, issuer.tenant);
  const cmt = await commitAll(salt, rid, values, names);
  const iat = issuer.now();
  const body = buildReceiptBody({ rid, iss: issuer.issuer, iat, cmt });
  const payload = utf8(canonicalJsonAsSent(body));
  const jws = await signReceiptPayload(payload, issuer.signingKey);
  await issuer.beforeLog?.({ jws, iat, salt });
  const logged = await issuer.appendToLog(entryHash(payload));
  const receipt: Receipt = saltGenerated
    ? { jws, proof: logged.proof, receiptSalt: salt }
    : { jws, proof: logged.proof };
  return { receipt, rid, iat, kid: issuer.signingKey.kid, logIndex: logged.index, salt, saltGenerated };
}
