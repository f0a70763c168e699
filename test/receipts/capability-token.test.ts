import { describe, expect, it } from 'vitest';
import type { CapabilityClaims } from '../../src/contracts/capability';
import type { TrustRoot } from '../../src/contracts/trust-root';
import { encodeBase64Url } from '../../src/encoding/base64';
import { utf8 } from '../../src/encoding/utf8';
import { argsSha256, signCapability, verifyCapability } from '../../src/receipts/capability-token';
import { signReceipt, verifyReceiptJws } from '../../src/receipts/jws';
import { buildReceiptBody } from '../../src/receipts/receipt-body';
import {
  type Ed25519SigningKey,
  generateEd25519Pkcs8,
  importEd25519SigningKey,
} from '../../src/signing/keys';
import { EXPECTED_CMT, RID } from './known-answers';

const args = { path: '/srv/data', recursive: true };
const now = 1_800_000_000_000;

function rootOf(key: Ed25519SigningKey, issuer = 'https://valve.test'): TrustRoot {
  return {
    issuer,
    receiptKeys: [{ kid: key.kid, jwk: key.publicJwk, validFrom: 0, validUntil: null }],
    logs: [],
  };
}

function claimsOf(overrides: Partial<CapabilityClaims> = {}): CapabilityClaims {
  return {
    v: 1,
    iss: 'https://valve.test',
    tenant: 'acme',
    rid: '0190a5e4-7c1b-7a3e-8f00-000000000001',
    call: 'call_1',
    tool: 'delete_files',
    argsSha256: argsSha256(args),
    tainted: true,
    decision: 'approve',
    by: 'key_reviewer',
    iat: now - 1000,
    exp: now + 60_000,
    ...overrides,
  };
}

const newKey = async () => importEd25519SigningKey(await generateEd25519Pkcs8());

describe('capability tokens', () => {
  it('verifies for the tenant, tool and exact arguments it was issued for', async () => {
    const key = await newKey();
    const token = await signCapability(claimsOf(), key);
    const result = await verifyCapability(token, rootOf(key), {
      args,
      tool: 'delete_files',
      tenant: 'acme',
      now,
    });
    expect(result.ok).toBe(true);
    expect(result.ok && result.claims.decision).toBe('approve');
    expect(result.checks.every((c) => c.ok)).toBe(true);
  });

  it('hashes arguments by their JCS, so member order does not matter but every value does', () => {
    expect(argsSha256({ recursive: true, path: '/srv/data' })).toBe(argsSha256(args));
    expect(argsSha256({ ...args, recursive: false })).not.toBe(argsSha256(args));
  });

  it.each([
    ['other arguments', { args: { path: '/', recursive: true } }, 'claims.args'],
    ['another tool', { tool: 'read_file' }, 'claims.tool'],
    ['another tenant', { tenant: 'globex' }, 'claims.tenant'],
    ['after expiry', { now: now + 60_000 }, 'claims.expiry'],
  ])('refuses a token replayed for %s', async (_, expect_, failing) => {
    const key = await newKey();
    const token = await signCapability(claimsOf(), key);
    const result = await verifyCapability(token, rootOf(key), {
      args,
      tool: 'delete_files',
      tenant: 'acme',
      now,
      ...expect_,
    });
    expect(result.ok).toBe(false);
    expect(result.checks.at(-1)).toMatchObject({ check: failing, ok: false });
  });

  it('refuses a tampered payload, another key and another issuer', async () => {
    const key = await newKey();
    const token = await signCapability(claimsOf(), key);
    const [header, , signature] = token.split('.');
    const forged = `${header}.${encodeBase64Url(utf8(JSON.stringify({ ...claimsOf(), argsSha256: argsSha256({ path: '/' }) })))}.${signature}`;
    const tampered = await verifyCapability(forged, rootOf(key), { now });
    expect(tampered.checks.at(-1)).toMatchObject({ check: 'jws.signature', ok: false });
    const other = await verifyCapability(token, rootOf(await newKey()), { now });
    expect(other.checks.at(-1)).toMatchObject({ check: 'jws.kid', ok: false });
    const issuer = await verifyCapability(token, rootOf(key, 'https://other.test'), { now });
    expect(issuer.checks.at(-1)).toMatchObject({ check: 'claims.issuer', ok: false });
  });

  it('is not a receipt, and a receipt is not a capability', async () => {
    const key = await newKey();
    const token = await signCapability(claimsOf(), key);
    const asReceipt = await verifyReceiptJws(token, rootOf(key).receiptKeys);
    expect(asReceipt.checks.at(-1)).toMatchObject({ check: 'jws.header', ok: false });
    const receipt = await signReceipt(
      buildReceiptBody({
        typ: 'valve-receipt/v1',
        rid: RID,
        iss: 'https://valve.test',
        iat: now,
        cmt: EXPECTED_CMT,
      }),
      key,
    );
    const asCapability = await verifyCapability(receipt, rootOf(key), { now });
    expect(asCapability.checks.at(-1)).toMatchObject({ check: 'jws.header', ok: false });
    // A key's protected headers are kept per typ: tokens signed after a receipt with the same key are
    // still capability tokens, and receipts still receipts.
    const again = await verifyCapability(await signCapability(claimsOf(), key), rootOf(key), { now });
    expect(again.ok).toBe(true);
    expect((await verifyReceiptJws(receipt, rootOf(key).receiptKeys)).ok).toBe(true);
  });

  it('refuses a token signed before its key was valid', async () => {
    const key = await newKey();
    const token = await signCapability(claimsOf(), key);
    const root = rootOf(key);
    const late: TrustRoot = {
      ...root,
      receiptKeys: [{ kid: key.kid, jwk: key.publicJwk, validFrom: now, validUntil: null }],
    };
    const result = await verifyCapability(token, late, { now });
    expect(result.checks.at(-1)).toMatchObject({ check: 'jws.key-validity', ok: false });
  });
});
