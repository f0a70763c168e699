import { decodeBase64Url } from '../encoding/base64';
import { type Bytes, timingSafeEqual } from '../encoding/bytes';
import { decodeUtf8, utf8 } from '../encoding/utf8';
import { type Ed25519PublicJwk, jwkThumbprint, verifyEd25519 } from '../signing/keys';
import { parseIJson } from './i-json';
import { canonicalJson, type JsonValue } from './jcs';

// The checks every Valve JWS shares, receipts and capabilities alike: a compact JWS whose protected
// header is exactly { alg: "Ed25519", kid, typ } with the expected typ, a kid that is the thumbprint
// of a trust-root key, an Ed25519 signature, and a payload that is I-JSON and exactly its own JCS.
// What the payload must say is each kind's own check, made after these.

export const JWS_ALG = 'Ed25519';

/** A receipt key of the trust root, valid for receipts with validFrom <= iat < validUntil (ms). */
export interface TrustedReceiptKey {
  kid: string;
  jwk: Ed25519PublicJwk;
  validFrom: number;
  validUntil: number | null;
}

export type JwsCheckName =
  | 'jws.format'
  | 'jws.header'
  | 'jws.kid'
  | 'jws.signature'
  | 'payload.i-json'
  | 'payload.jcs';

export interface NamedCheck<N extends string> {
  check: N;
  ok: boolean;
  detail?: string;
}

export type CompactJwsResult =
  | { ok: true; body: JsonValue; payload: Bytes; kid: string }
  | { ok: false; check: JwsCheckName; detail: string };

function parseJsonSegment(segment: Bytes): JsonValue | null {
  const text = decodeUtf8(segment);
  if (text === null) return null;
  const parsed = parseIJson(text);
  return parsed.ok ? parsed.value : null;
}

function checkHeader(header: JsonValue | null, typ: string): string | null {
  if (header === null || typeof header !== 'object' || Array.isArray(header))
    return 'header is not I-JSON object';
  const names = Object.keys(header).sort().join(',');
  if (names !== 'alg,kid,typ') return 'header members are not exactly alg, kid, typ';
  if (header.alg !== JWS_ALG) return `alg is not ${JWS_ALG}`;
  if (header.typ !== typ) return `typ is not ${typ}`;
  if (typeof header.kid !== 'string' || header.kid.length === 0) return 'kid is not a non-empty string';
  return null;
}

function publicJwk(jwk: Ed25519PublicJwk): Ed25519PublicJwk {
  // Only the required members enter the thumbprint (RFC 7638), whatever else the trust root lists.
  return { kty: jwk.kty, crv: jwk.crv, x: jwk.x };
}

/**
 * Runs the shared checks in order, calling `passed` for each that holds; it stops at the first that
 * fails and returns it.
 */
export async function verifyCompactJws(
  jws: string,
  typ: string,
  trustedKeys: readonly TrustedReceiptKey[],
  passed: (check: JwsCheckName, detail?: string) => void,
): Promise<CompactJwsResult> {
  const failed = (check: JwsCheckName, detail: string): CompactJwsResult => ({ ok: false, check, detail });
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
  const headerProblem = checkHeader(header, typ);
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
  return { ok: true, body, payload, kid };
}

/** Whether one of the key's windows (a key may be listed more than once) holds `iat`. */
export function keyValidAt(trustedKeys: readonly TrustedReceiptKey[], kid: string, iat: number): boolean {
  return trustedKeys
    .filter((k) => k.kid === kid)
    .some((k) => iat >= k.validFrom && (k.validUntil === null || iat < k.validUntil));
}
