import { describe, expect, it } from 'vitest';
import { decodeBase64 } from '../../src/encoding/base64';
import { bytesToHex, hexToBytes } from '../../src/encoding/hex';
import { utf8 } from '../../src/encoding/utf8';
import {
  ed25519Pkcs8FromSeed,
  generateEd25519Pkcs8,
  importEd25519SigningKey,
  jwkThumbprint,
  signEd25519,
  verifyEd25519,
} from '../../src/signing/keys';
import { RFC8032_KID, RFC8032_PUBLIC, RFC8032_SEED, RFC8032_SIG } from '../receipts/known-answers';
import { wycheproofFiles } from '../shared-data';

const hex = (text: string) => hexToBytes(text) as Uint8Array<ArrayBuffer>;

interface EddsaGroup {
  publicKey: { pk: string };
  tests: { tcId: number; msg: string; sig: string; result: 'valid' | 'invalid' | 'acceptable' }[];
}

describe('Ed25519 keys', () => {
  it('imports the RFC 8032 test 1 key from PKCS#8 and signs its empty message exactly', async () => {
    const key = await importEd25519SigningKey(ed25519Pkcs8FromSeed(hex(RFC8032_SEED)));
    expect(bytesToHex(key.publicKey)).toBe(RFC8032_PUBLIC);
    expect(bytesToHex(await signEd25519(key.privateKey, new Uint8Array()))).toBe(RFC8032_SIG);
    expect(key.privateKey.extractable).toBe(false);
  });

  it('names the key by its RFC 7638 thumbprint (RFC 8037 appendix A.3)', async () => {
    const key = await importEd25519SigningKey(ed25519Pkcs8FromSeed(hex(RFC8032_SEED)));
    expect(key.publicJwk).toEqual({
      kty: 'OKP',
      crv: 'Ed25519',
      x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo',
    });
    expect(key.kid).toBe(RFC8032_KID);
    expect(await jwkThumbprint(key.publicJwk)).toBe(key.kid);
  });

  it('imports a generated base64 PKCS#8 key, whose signatures verify', async () => {
    const pkcs8 = await generateEd25519Pkcs8();
    const key = await importEd25519SigningKey(`${pkcs8}\n`);
    const message = utf8('checkpoint');
    const signature = await signEd25519(key.privateKey, message);
    expect(await verifyEd25519(key.publicKey, message, signature)).toBe(true);
    expect(await verifyEd25519(key.publicKey, utf8('checkpoinT'), signature)).toBe(false);
    expect((await importEd25519SigningKey(await generateEd25519Pkcs8())).kid).not.toBe(key.kid);
  });

  it('refuses a signing key that is not base64 Ed25519 PKCS#8', async () => {
    await expect(importEd25519SigningKey('not base64!')).rejects.toThrow(TypeError);
    const der = decodeBase64(await generateEd25519Pkcs8()) as Uint8Array;
    await expect(importEd25519SigningKey(der.subarray(0, 40))).rejects.toThrow(TypeError);
    expect(() => ed25519Pkcs8FromSeed(new Uint8Array(31))).toThrow(TypeError);
  });

  it('accepts the RFC 8032 test 1 signature and nothing shorter, longer or altered', async () => {
    const pk = hex(RFC8032_PUBLIC);
    const sig = hex(RFC8032_SIG);
    const empty = new Uint8Array();
    expect(await verifyEd25519(pk, empty, sig)).toBe(true);
    expect(await verifyEd25519(pk, empty, sig.slice(0, 63))).toBe(false);
    expect(await verifyEd25519(pk, empty, hex(`${RFC8032_SIG}00`))).toBe(false);
    expect(await verifyEd25519(pk.slice(0, 31), empty, sig)).toBe(false);
    for (let i = 0; i < 64; i += 7) {
      const altered = sig.slice();
      altered[i] = (altered[i] as number) ^ 0x40;
      expect(await verifyEd25519(pk, empty, altered), `byte ${i}`).toBe(false);
    }
  });

  const groups: EddsaGroup[] =
    wycheproofFiles['ed25519_test.json'] === undefined
      ? []
      : (JSON.parse(wycheproofFiles['ed25519_test.json']) as { testGroups: EddsaGroup[] }).testGroups;

  it.skipIf(groups.length === 0)(
    'rejects every invalid and accepts every valid Wycheproof case (151)',
    async () => {
      let count = 0;
      for (const group of groups) {
        for (const t of group.tests) {
          const ok = await verifyEd25519(hex(group.publicKey.pk), hex(t.msg), hex(t.sig));
          if (t.result === 'valid') expect(ok, `tcId ${t.tcId}`).toBe(true);
          if (t.result === 'invalid') expect(ok, `tcId ${t.tcId}`).toBe(false);
          count++;
        }
      }
      expect(count).toBe(151);
    },
  );
});
