import { sha256 } from '@noble/hashes/sha2.js';
import { CAPABILITY_JWS_TYP, type CapabilityClaims, capabilityClaimsSchema } from '../contracts/capability';
import type { TrustRoot } from '../contracts/trust-root';
import { encodeBase64Url } from '../encoding/base64';
import { bytesToHex } from '../encoding/hex';
import { utf8 } from '../encoding/utf8';
import { type Ed25519SigningKey, signEd25519 } from '../signing/keys';
import { findIJsonProblems } from './i-json';
import { canonicalJson, type JsonValue } from './jcs';
import { protectedHeaderOf } from './jws-header';
import { type JwsCheckName, keyValidAt, type NamedCheck, verifyCompactJws } from './verify-compact-jws';

// A capability token (docs/approvals.md): a compact JWS, typ `valve-approval+jws`, over the JCS of
// its claims, signed by the deployment's receipt key. It lets one tool call run with exactly the
// arguments whose digest it carries, for one tenant, until it expires; an executor checks it offline
// against the trust root it pinned. Its typ keeps it from passing for a receipt, and a receipt for it.

/** Lowercase hex SHA-256 of the JCS bytes of a call's arguments. */
export function argsSha256(args: unknown): string {
  if (findIJsonProblems(args as JsonValue).length > 0) throw new TypeError('arguments are not I-JSON');
  return bytesToHex(sha256(utf8(canonicalJson(args as JsonValue))));
}

export async function signCapability(claims: CapabilityClaims, key: Ed25519SigningKey): Promise<string> {
  const checked = capabilityClaimsSchema.parse(claims);
  const signingInput = `${protectedHeaderOf(key, CAPABILITY_JWS_TYP)}.${encodeBase64Url(utf8(canonicalJson(checked as unknown as JsonValue)))}`;
  const signature = await signEd25519(key.privateKey, utf8(signingInput));
  return `${signingInput}.${encodeBase64Url(signature)}`;
}

export type CapabilityCheckName =
  | JwsCheckName
  | 'payload.claims'
  | 'jws.key-validity'
  | 'claims.issuer'
  | 'claims.expiry'
  | 'claims.tenant'
  | 'claims.tool'
  | 'claims.args';

/** What the executor is about to run, each checked against the token when given. */
export interface CapabilityExpectation {
  /** The exact arguments (any JSON value; compared by the SHA-256 of their JCS). */
  args?: unknown;
  tool?: string;
  tenant?: string;
  /** Epoch ms; Date.now() when omitted. */
  now?: number;
}

export type CapabilityVerification =
  | { ok: true; claims: CapabilityClaims; kid: string; checks: NamedCheck<CapabilityCheckName>[] }
  | { ok: false; checks: NamedCheck<CapabilityCheckName>[] };

/**
 * Checks a capability token against a pinned trust root: signature by one of its receipt keys (valid
 * at `iat`), the deployment's issuer, not expired, and, when given, the tenant, the tool and the exact
 * arguments. It stops at the first failure; every check run is reported.
 */
export async function verifyCapability(
  token: string,
  trustRoot: TrustRoot,
  expect: CapabilityExpectation = {},
): Promise<CapabilityVerification> {
  const checks: NamedCheck<CapabilityCheckName>[] = [];
  const failed = (check: CapabilityCheckName, detail: string): CapabilityVerification => {
    checks.push({ check, ok: false, detail });
    return { ok: false, checks };
  };
  const passed = (check: CapabilityCheckName, detail?: string) =>
    checks.push(detail === undefined ? { check, ok: true } : { check, ok: true, detail });

  const shared = await verifyCompactJws(token.trim(), CAPABILITY_JWS_TYP, trustRoot.receiptKeys, passed);
  if (!shared.ok) return failed(shared.check, shared.detail);
  const parsed = capabilityClaimsSchema.safeParse(shared.body);
  if (!parsed.success) return failed('payload.claims', 'the payload is not capability claims');
  const claims = parsed.data;
  passed('payload.claims');

  if (!keyValidAt(trustRoot.receiptKeys, shared.kid, claims.iat)) {
    return failed('jws.key-validity', `key ${shared.kid} was not valid at iat ${claims.iat}`);
  }
  passed('jws.key-validity');
  if (claims.iss !== trustRoot.issuer) {
    return failed('claims.issuer', `issued by ${claims.iss}, not ${trustRoot.issuer}`);
  }
  passed('claims.issuer');
  const now = expect.now ?? Date.now();
  if (!(now < claims.exp)) return failed('claims.expiry', `expired at ${claims.exp} (now ${now})`);
  passed('claims.expiry', `until ${claims.exp}`);
  if (expect.tenant !== undefined) {
    if (claims.tenant !== expect.tenant) return failed('claims.tenant', 'issued to another tenant');
    passed('claims.tenant');
  }
  if (expect.tool !== undefined) {
    if (claims.tool !== expect.tool) return failed('claims.tool', `issued for the tool ${claims.tool}`);
    passed('claims.tool');
  }
  if (expect.args !== undefined) {
    let digest: string;
    try {
      digest = argsSha256(expect.args);
    } catch {
      return failed('claims.args', 'the arguments are not I-JSON');
    }
    if (digest !== claims.argsSha256) return failed('claims.args', 'issued for other arguments');
    passed('claims.args');
  }
  return { ok: true, claims, kid: shared.kid, checks };
}
