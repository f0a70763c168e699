import { encodeBase64Url } from '../encoding/base64';
import type { Bytes } from '../encoding/bytes';
import { utf8 } from '../encoding/utf8';
import { type Ed25519SigningKey, signEd25519 } from '../signing/keys';
import { canonicalJson, type JsonValue } from './jcs';
import { protectedHeaderOf } from './jws-header';
import { type ReceiptBody, validateReceiptBody } from './receipt-body';
import { JWS_ALG, keyValidAt, type TrustedReceiptKey, verifyCompactJws } from './verify-compact-jws';

export type { TrustedReceiptKey } from './verify-compact-jws';

// A receipt is a compact JWS over the JCS bytes of its body, protected header exactly
// { alg: "Ed25519", kid, typ: "valve-receipt+jws" }. "Ed25519" is the fully specified JOSE algorithm
// name of RFC 9864 (jose 6 accepts it as well as the deprecated polymorphic "EdDSA"); Valve signs
// with "Ed25519" and its verifier accepts nothing else. Signing goes through jose; verification is
// written out (verify-compact-jws.ts, shared with capabilities) so that every check is strict and
// reported: the header is parsed as I-JSON (no duplicate members), the signature is checked with
// WebCrypto Ed25519, and the payload must be exactly the JCS of itself. Signing is written out too (RFC 7515 section 5.1 for the compact form):
// the protected header is the same for every receipt of a key, so its base64url is made once per key,
// and Ed25519 is deterministic, so the bytes are those jose would produce (the tests compare them).

export const RECEIPT_JWS_ALG = JWS_ALG;
export const RECEIPT_JWS_TYP = 'valve-receipt+jws';

export type ReceiptCheckName =
  | 'jws.format'
  | 'jws.header'
  | 'jws.kid'
  | 'jws.signature'
  | 'payload.i-json'
  | 'payload.jcs'
  | 'payload.body'
  | 'jws.key-validity';

export interface ReceiptCheck {
  check: ReceiptCheckName;
  ok: boolean;
  detail?: string;
}

export type ReceiptVerification =
  | { ok: true; body: ReceiptBody; payload: Bytes; kid: string; checks: ReceiptCheck[] }
  | { ok: false; checks: ReceiptCheck[] };

export async function signReceipt(body: ReceiptBody, key: Ed25519SigningKey): Promise<string> {
  const checked = validateReceiptBody(body);
  if (!checked.ok) throw new TypeError(`invalid receipt body: ${checked.reason}`);
  return signReceiptPayload(utf8(canonicalJson(body as unknown as JsonValue)), key);
}

/**
 * Signs a payload that is already the JCS of a body made by `buildReceiptBody`: the issuer
 * canonicalises the body once, for the signature and for the log's entry hash alike.
 */
export async function signReceiptPayload(payload: Bytes, key: Ed25519SigningKey): Promise<string> {
  const signingInput = `${protectedHeaderOf(key, RECEIPT_JWS_TYP)}.${encodeBase64Url(payload)}`;
  const signature = await signEd25519(key.privateKey, utf8(signingInput));
  return `${signingInput}.${encodeBase64Url(signature)}`;
}

/** Verifies a receipt JWS against trusted keys, reporting each check; it stops at the first failure. */
export async function verifyReceiptJws(
  jws: string,
  trustedKeys: readonly TrustedReceiptKey[],
): Promise<ReceiptVerification> {
  const checks: ReceiptCheck[] = [];
  const failed = (check: ReceiptCheckName, detail: string): ReceiptVerification => {
    checks.push({ check, ok: false, detail });
    return { ok: false, checks };
  };
  const passed = (check: ReceiptCheckName, detail?: string) =>
    checks.push(detail === undefined ? { check, ok: true } : { check, ok: true, detail });

  const shared = await verifyCompactJws(jws, RECEIPT_JWS_TYP, trustedKeys, passed);
  if (!shared.ok) return failed(shared.check, shared.detail);
  const { body, payload, kid } = shared;

  const validated = validateReceiptBody(body);
  if (!validated.ok) return failed('payload.body', validated.reason);
  passed('payload.body');

  // A key listed more than once (say, retired and later restored) is valid in any of its windows.
  const { iat } = validated.value;
  if (!keyValidAt(trustedKeys, kid, iat)) {
    return failed('jws.key-validity', `key ${kid} was not valid at iat ${iat}`);
  }
  passed('jws.key-validity');
  return { ok: true, body: validated.value, payload, kid, checks };
}
