import { CompactSign } from 'jose';
import { describe, expect, it } from 'vitest';
import { encodeBase64Url } from '../../src/encoding/base64';
import { hexToBytes } from '../../src/encoding/hex';
import { utf8 } from '../../src/encoding/utf8';
import { commitAll } from '../../src/receipts/commitments';
import {
  type ReceiptCheckName,
  signReceipt,
  signReceiptPayload,
  type TrustedReceiptKey,
  verifyReceiptJws,
} from '../../src/receipts/jws';
import { buildReceiptBody } from '../../src/receipts/receipt-body';
import {
  type Ed25519SigningKey,
  ed25519Pkcs8FromSeed,
  generateEd25519Pkcs8,
  importEd25519SigningKey,
  signEd25519,
} from '../../src/signing/keys';
import { EXPECTED_CMT, KAT_IAT, KAT_ISS, KAT_JWS, RFC8032_SEED, RID, SALT, VALUES } from './known-answers';

const katKey = () => importEd25519SigningKey(ed25519Pkcs8FromSeed(hexToBytes(RFC8032_SEED) as Uint8Array));
const katBody = buildReceiptBody({
  typ: 'valve-receipt/v1',
  rid: RID,
  iss: KAT_ISS,
  iat: KAT_IAT,
  cmt: EXPECTED_CMT,
});
// The JCS of katBody written without canonicalJson: every member name is ASCII, so sorting the names
// that JSON.stringify keeps at every level gives RFC 8785 order.
const katPayload = JSON.stringify(katBody, [...Object.keys(katBody), ...Object.keys(EXPECTED_CMT)].sort());

function trust(key: Ed25519SigningKey, validFrom = 0, validUntil: number | null = null): TrustedReceiptKey {
  return { kid: key.kid, jwk: key.publicJwk, validFrom, validUntil };
}

/** A compact JWS assembled by hand, so that tests can sign what Valve itself would never produce. */
async function signRaw(header: string, payload: string, key: Ed25519SigningKey): Promise<string> {
  const input = `${encodeBase64Url(utf8(header))}.${encodeBase64Url(utf8(payload))}`;
  return `${input}.${encodeBase64Url(await signEd25519(key.privateKey, utf8(input)))}`;
}

function failedCheck(result: Awaited<ReturnType<typeof verifyReceiptJws>>): ReceiptCheckName | undefined {
  return result.checks.find((c) => !c.ok)?.check;
}

describe('receipt JWS', () => {
  it('signs the known receipt to the exact known bytes', async () => {
    expect(await signReceipt(katBody, await katKey())).toBe(KAT_JWS);
  });

  it('signs a body of freshly computed commitments identically', async () => {
    const cmt = await commitAll(SALT, RID, VALUES);
    expect(
      await signReceipt(
        buildReceiptBody({ typ: 'valve-receipt/v1', rid: RID, iss: KAT_ISS, iat: KAT_IAT, cmt }),
        await katKey(),
      ),
    ).toBe(KAT_JWS);
  });

  it('signs exactly what jose signs, under each of two keys in turn', async () => {
    const payload = utf8(JSON.stringify(katBody));
    const kat = await katKey();
    const other = await importEd25519SigningKey(await generateEd25519Pkcs8());
    for (const key of [kat, other, kat]) {
      const viaJose = await new CompactSign(payload)
        .setProtectedHeader({ alg: 'Ed25519', kid: key.kid, typ: 'valve-receipt+jws' })
        .sign(key.privateKey);
      expect(await signReceiptPayload(payload, key)).toBe(viaJose);
    }
  });

  it('verifies the known receipt, passing every check in order', async () => {
    const key = await katKey();
    const result = await verifyReceiptJws(KAT_JWS, [trust(key)]);
    expect(result.ok).toBe(true);
    expect(result.checks.map((c) => [c.check, c.ok])).toEqual([
      ['jws.format', true],
      ['jws.header', true],
      ['jws.kid', true],
      ['jws.signature', true],
      ['payload.i-json', true],
      ['payload.jcs', true],
      ['payload.body', true],
      ['jws.key-validity', true],
    ]);
    if (result.ok) {
      expect(result.body).toEqual(katBody);
      expect(result.kid).toBe(key.kid);
      expect(new TextDecoder().decode(result.payload)).toBe(katPayload);
    }
  });

  it('fails when any single character of the JWS changes', async () => {
    const trusted = [trust(await katKey())];
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    for (let i = 0; i < KAT_JWS.length; i++) {
      const ch = KAT_JWS[i] as string;
      if (ch === '.') continue;
      const other = alphabet[(alphabet.indexOf(ch) + 1 + (i % 63)) % 64] as string;
      const mutated = KAT_JWS.slice(0, i) + other + KAT_JWS.slice(i + 1);
      expect((await verifyReceiptJws(mutated, trusted)).ok, `position ${i}`).toBe(false);
    }
  });

  it('rejects a JWS that is not three strict base64url segments', async () => {
    const trusted = [trust(await katKey())];
    for (const jws of [
      `${KAT_JWS}.`,
      KAT_JWS.slice(0, KAT_JWS.lastIndexOf('.')),
      `${KAT_JWS}=`,
      ` ${KAT_JWS}`,
    ]) {
      expect(failedCheck(await verifyReceiptJws(jws, trusted))).toBe('jws.format');
    }
  });

  it('rejects the alg "EdDSA", another typ, an extra or a duplicated header member', async () => {
    const key = await katKey();
    const headers = [
      `{"alg":"EdDSA","kid":"${key.kid}","typ":"valve-receipt+jws"}`,
      `{"alg":"Ed25519","kid":"${key.kid}","typ":"JWT"}`,
      `{"alg":"Ed25519","kid":"${key.kid}","typ":"valve-receipt+jws","crit":["b64"],"b64":false}`,
      `{"alg":"Ed25519","kid":"${key.kid}","typ":"valve-receipt+jws","typ":"valve-receipt+jws"}`,
      `{"alg":"Ed25519","kid":"${key.kid}"}`,
    ];
    for (const header of headers) {
      expect(
        failedCheck(await verifyReceiptJws(await signRaw(header, katPayload, key), [trust(key)])),
        header,
      ).toBe('jws.header');
    }
  });

  it('rejects an unknown kid, and a trust root entry whose key does not match its kid', async () => {
    const key = await katKey();
    const other = await importEd25519SigningKey(await generateEd25519Pkcs8());
    expect(failedCheck(await verifyReceiptJws(KAT_JWS, [trust(other)]))).toBe('jws.kid');
    const mislabelled = { ...trust(other), kid: key.kid };
    expect(failedCheck(await verifyReceiptJws(KAT_JWS, [mislabelled]))).toBe('jws.kid');
  });

  it('rejects a signature made by another key under the trusted kid', async () => {
    const key = await katKey();
    const forger = await importEd25519SigningKey(await generateEd25519Pkcs8());
    const forged = await signReceipt(katBody, { ...forger, kid: key.kid });
    expect(failedCheck(await verifyReceiptJws(forged, [trust(key)]))).toBe('jws.signature');
  });

  it('rejects a signed payload that is not I-JSON, not canonical, or not a v1 body', async () => {
    const key = await katKey();
    const header = `{"alg":"Ed25519","kid":"${key.kid}","typ":"valve-receipt+jws"}`;
    const canonical = katPayload;
    const cases: [string, ReceiptCheckName][] = [
      [`${canonical.slice(0, -1)},"typ":"valve-receipt/v1"}`, 'payload.i-json'],
      ['{"a":"\\ud800"}', 'payload.i-json'],
      [`${canonical} `, 'payload.jcs'],
      [JSON.stringify(katBody), 'payload.jcs'],
      ['{"typ":"valve-receipt/v1"}', 'payload.body'],
      [canonical.replace('"iat":1767225600123', '"iat":-1'), 'payload.body'],
    ];
    for (const [payload, check] of cases) {
      expect(
        failedCheck(await verifyReceiptJws(await signRaw(header, payload, key), [trust(key)])),
        payload,
      ).toBe(check);
    }
    // The control: the same route with the canonical payload verifies.
    expect((await verifyReceiptJws(await signRaw(header, canonical, key), [trust(key)])).ok).toBe(true);
  });

  it('accepts a key from validFrom up to, not including, validUntil', async () => {
    const key = await katKey();
    const at = async (from: number, until: number | null) =>
      (await verifyReceiptJws(KAT_JWS, [trust(key, from, until)])).ok;
    expect(await at(KAT_IAT, KAT_IAT + 1)).toBe(true);
    expect(await at(KAT_IAT + 1, null)).toBe(false);
    expect(await at(0, KAT_IAT)).toBe(false);
    expect(failedCheck(await verifyReceiptJws(KAT_JWS, [trust(key, 0, KAT_IAT)]))).toBe('jws.key-validity');
    const twoWindows = [trust(key, 0, KAT_IAT), trust(key, KAT_IAT + 1000, null)];
    expect((await verifyReceiptJws(KAT_JWS, twoWindows)).ok).toBe(false);
    expect((await verifyReceiptJws(KAT_JWS, [...twoWindows, trust(key, KAT_IAT - 5, KAT_IAT + 5)])).ok).toBe(
      true,
    );
  });

  it('refuses to sign an invalid body', async () => {
    await expect(signReceipt({ ...katBody, rid: 'nope' }, await katKey())).rejects.toThrow(TypeError);
  });
});
