import { describe, expect, it } from 'vitest';
import { bytesToHex, hexToBytes } from '../../src/encoding/hex';
import { utf8 } from '../../src/encoding/utf8';
import { hkdfSha256, hmacSha256 } from '../../src/receipts/hkdf-hmac';
import { wycheproofFiles } from '../shared-data';

const hex = (text: string) => hexToBytes(text) as Uint8Array<ArrayBuffer>;

interface WycheproofGroup<T> {
  tagSize?: number;
  tests: T[];
}
interface HkdfCase {
  tcId: number;
  ikm: string;
  salt: string;
  info: string;
  size: number;
  okm: string;
  result: 'valid' | 'invalid' | 'acceptable';
}
interface MacCase {
  tcId: number;
  key: string;
  msg: string;
  tag: string;
  result: 'valid' | 'invalid' | 'acceptable';
}

function groups<T>(name: string): WycheproofGroup<T>[] {
  const text = wycheproofFiles[name];
  return text === undefined ? [] : (JSON.parse(text) as { testGroups: WycheproofGroup<T>[] }).testGroups;
}

describe('hkdfSha256', () => {
  it('gives the RFC 5869 test case 1 output', async () => {
    const okm = await hkdfSha256(
      hex('0b'.repeat(22)),
      hex('000102030405060708090a0b0c'),
      hex('f0f1f2f3f4f5f6f7f8f9'),
      42,
    );
    expect(bytesToHex(okm)).toBe(
      '3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865',
    );
  });

  const hkdfCases = groups<HkdfCase>('hkdf_sha256_test.json').flatMap((g) => g.tests);
  it.skipIf(hkdfCases.length === 0)('passes all 86 Wycheproof HKDF-SHA256 cases', async () => {
    expect(hkdfCases).toHaveLength(86);
    for (const t of hkdfCases) {
      const derived = hkdfSha256(hex(t.ikm), hex(t.salt), hex(t.info), t.size);
      if (t.result === 'invalid') {
        await expect(derived, `tcId ${t.tcId}`).rejects.toThrow();
      } else {
        expect(bytesToHex(await derived), `tcId ${t.tcId}`).toBe(t.okm);
      }
    }
  });
});

describe('hmacSha256', () => {
  it('gives the RFC 4231 test case 1 tag', async () => {
    const tag = await hmacSha256(hex('0b'.repeat(20)), utf8('Hi There'));
    expect(bytesToHex(tag)).toBe('b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7');
  });

  const macGroups = groups<MacCase>('hmac_sha256_test.json');
  it.skipIf(macGroups.length === 0)('passes all 174 Wycheproof HMAC-SHA256 cases', async () => {
    let count = 0;
    for (const group of macGroups) {
      const tagBytes = (group.tagSize ?? 256) / 8;
      for (const t of group.tests) {
        const tag = bytesToHex((await hmacSha256(hex(t.key), hex(t.msg))).subarray(0, tagBytes));
        expect(tag === t.tag, `tcId ${t.tcId}`).toBe(t.result === 'valid');
        count++;
      }
    }
    expect(count).toBe(174);
  });
});
