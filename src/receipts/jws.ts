import { decodeBase64Url, encodeBase64Url } from '../encoding/base64';
import { type Bytes, timingSafeEqual } from '../encoding/bytes';
import { decodeUtf8, utf8 } from '../encoding/utf8';
import {
  type Ed25519PublicJwk,
  type Ed25519SigningKey,
  jwkThumbprint,
  signEd25519,
  verifyEd25519,
} from '../signing/keys';
import { parseIJson } from './i-json';
import { canonicalJson, type JsonValue } from './jcs';
import { type ReceiptBody, validateReceiptBody } from './receipt-body';

// A receipt is a compact JWS over the JCS bytes of its body, protected header exactly
// { alg: "Ed25519", kid, typ: "valve-receipt+jws" }. "Ed25519" is the fully specified JOSE algorithm
// name of RFC 9864 (jose 6 accepts it as well as the deprecated polymorphic "EdDSA"); Valve signs
// with "Ed25519" and its verifier accepts nothing else. Signing goes through jose; verification is
// written out here so that every check is strict and reported: the header is parsed as I-JSON (no
// duplicate members), the signature is checked with WebCrypto Ed25519, and the payload must be
// exactly the JCS of itself. Signing is written out too (RFC 7515 section 5.1 for the compact form):
// the protected header is the same for every receipt of a key, so its base64url is made once per key,
// and Ed25519 is deterministic, so the bytes are those jose would produce (the tests compare them).

export const RECEIPT_JWS_ALG = 'Ed25519';
export const RECEIPT_JWS_TYP = 'valve-receipt+jws';

/** A receipt key of the trust root, valid for receipts with validFrom <= iat < validUntil (ms). */
export interface TrustedReceiptKey {
  kid: string;
  jwk: Ed25519PublicJwk;
  validFrom: number;
  validUntil: number | null;
}

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

// base64url(JCS(header)) per signing key, made on its first receipt.
const HEADERS = new WeakMap<Ed25519SigningKey, string>();
function protectedHeaderOf(key: Ed25519SigningKey): string {
  let header = HEADERS.get(key);
  if (header === undefined) {
    const members = { alg: RECEIPT_JWS_ALG, kid: key.kid, typ: RECEIPT_JWS_TYP };
    header = encodeBase64Url(utf8(canonicalJson(members)));
    HEADERS.set(key, header);
  }
  return header;
}

/**
 * Signs a payload that is already the JCS of a body made by `buildReceiptBody`: the issuer
 * canonicalises the body once, for the signature and for the log's entry hash alike.
 */
export async function signReceiptPayload(payload: Bytes, key: Ed25519SigningKey): Promise<string> {
  const signingInput = `${protectedHeaderOf(key)}.${encodeBase64Url(payload)}`;
  const signature = await signEd25519(key.privateKey, utf8(signingInput));
  return `${signingInput}.${encodeBase64Url(signature)}`;
}

function parseJsonSegment(segment: Bytes): JsonValue | null {
  const text = decodeUtf8(segment);
  if (text === null) return null;
  const parsed = parseIJson(text);
  return parsed.ok ? parsed.value : null;
}

function checkHeader(header: JsonValue | null): string | null {
  if (header === null || typeof header !== 'object' || Array.isArray(header))
    return 'header is not I-JSON object';
  const names = Object.keys(header).sort().join(',');
  if (names !== 'alg,kid,typ') return 'header members are not exactly alg, kid, typ';
  if (header.alg !== RECEIPT_JWS_ALG) return `alg is not ${RECEIPT_JWS_ALG}`;
  if (header.typ !== RECEIPT_JWS_TYP) return `typ is not ${RECEIPT_JWS_TYP}`;
  if (typeof header.kid !== 'string' || header.kid.length === 0) return 'kid is not a non-empty string';
  return null;
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

  const segments = jws.split('.');
  const [headerB64, payloadB64, signatureB64] = segments;
  const headerBytes = decodeBase64Url(headerB64 ?? '');
  const payload = decodeBase64Url(payloadB64 ?? '');
  const signature = decodeBase64Url(signatureB64 ?? '');
  if (segments.length !== 3 || headerBytes === null || payload === null || signature === null) {
    return failed('jws.format', 'not three base64url segments');
  }
  passed('jws.format');

  const header = parseJsonSegment(headerBytes);
  const headerProblem = checkHeader(header);
  if (headerProblem !== null) return failed('jws.header', headerProblem);
  const kid = (header as { kid: string }).kid;
  passed('jws.header');

  const trusted = trustedKeys.find((k) => k.kid === kid);
  const publicKey = decodeBase64Url(trusted?.jwk.x ?? '');
  if (trusted === undefined || publicKey === null)
    return failed('jws.kid', `kid ${kid} is not in the trust root`);
  if (trusted.jwk.kty !== 'OKP' || trusted.jwk.crv !== 'Ed25519') {
    return failed('jws.kid', `the trust root's key for ${kid} is not an Ed25519 key`);
  }
  if ((await jwkThumbprint(publicJwk(trusted.jwk))) !== kid) {
    return failed('jws.kid', `the trust root's key for ${kid} does not have that thumbprint`);
  }
  passed('jws.kid', kid);

  const signingInput = utf8(`${headerB64}.${payloadB64}`);
  if (!(await verifyEd25519(publicKey, signingInput, signature))) {
    return failed('jws.signature', 'Ed25519 signature does not verify');
  }
  passed('jws.signature');

  const body = parseJsonSegment(payload);
  if (body === null) return failed('payload.i-json', 'payload is not I-JSON');
  passed('payload.i-json');

  if (!timingSafeEqual(utf8(canonicalJson(body)), payload)) {
    return failed('payload.jcs', 'payload is not in RFC 8785 canonical form');
  }
  passed('payload.jcs');

  const validated = validateReceiptBody(body);
  if (!validated.ok) return failed('payload.body', validated.reason);
  passed('payload.body');

  // A key listed more than once (say, retired and later restored) is valid in any of its windows.
  const { iat } = validated.value;
  const windows = trustedKeys.filter((k) => k.kid === kid);
  if (!windows.some((k) => iat >= k.validFrom && (k.validUntil === null || iat < k.validUntil))) {
    return failed('jws.key-validity', `key ${kid} was not valid at iat ${iat}`);
  }
  passed('jws.key-validity');
  return { ok: true, body: validated.value, payload, kid, checks };
}

function publicJwk(jwk: Ed25519PublicJwk): Ed25519PublicJwk {
  // Only the required members enter the thumbprint (RFC 7638), whatever else the trust root lists.
  return { kty: jwk.kty, crv: jwk.crv, x: jwk.x };
}
