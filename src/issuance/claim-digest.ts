import type { ReasonRequest } from '../contracts/reason-request';
import { type Bytes, concatBytes, timingSafeEqual } from '../encoding/bytes';
import { utf8 } from '../encoding/utf8';
import { hkdfSha256, hmacSha256 } from '../receipts/hkdf-hmac';
import { uuidToBytes } from '../receipts/uuid';
import { requestDigest } from './request-digest';

// What a claim remembers of its request, so that only the exact retry (same tenant, id, salt and
// request) may take over a claim whose holder died: an HMAC of the request digest under a key derived
// from the caller's salt, which Valve never stores. Without the salt nobody, Valve included, can test
// a guess of the content against it. A request whose salt Valve draws has no digest.

const KDF_SALT = utf8('valve-receipt/v1/kdf');
const CLAIM_INFO = utf8('valve-receipt/v1/claim');
const DIGEST_LABEL = utf8('valve-receipt/v1/claim-digest');
const ZERO = new Uint8Array([0]);

/** The request's digest, computed once a request, and the claim's keyed digest of it; both null without the caller's salt. */
export interface ClaimDigests {
  /** requestDigest(request): also what the replay copy is sealed to, so the receipt hook takes it from the claim. */
  request: Bytes | null;
  claim: Bytes | null;
}

export async function claimDigests(
  tenant: string,
  request: ReasonRequest & { receiptId: string },
): Promise<ClaimDigests> {
  if (request.receiptSalt === undefined) return { request: null, claim: null };
  const ofRequest = requestDigest(request);
  const info = concatBytes(CLAIM_INFO, ZERO, uuidToBytes(request.receiptId));
  const key = await hkdfSha256(utf8(request.receiptSalt), KDF_SALT, info, 32);
  const claim = await hmacSha256(key, concatBytes(DIGEST_LABEL, ZERO, utf8(tenant), ZERO, ofRequest));
  return { request: ofRequest, claim };
}

/** Whether a stored claim digest is this request's: both absent (Valve-drawn salts), or equal. */
export function sameClaimDigest(stored: ArrayBuffer | null, mine: Bytes | null): boolean {
  if (stored === null || mine === null) return stored === null && mine === null;
  return timingSafeEqual(new Uint8Array(stored), mine);
}
