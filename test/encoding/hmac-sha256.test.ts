import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesToHex } from '../../src/encoding/hex';
import { hmacKey, hmacOnce, hmacParts, sha256Parts } from '../../src/encoding/hmac-sha256';
import { utf8 } from '../../src/encoding/utf8';

// The issuer's keyed-once MACs (one reused scratch state, messages in parts) against one-shot
// @noble/hashes calls, for keys and messages of every length around the 64-byte block, given in parts
// cut anywhere, with other keys used in between. The RFC 4231 and Wycheproof vectors run through
// hkdf-hmac.test.ts.

const bytesArb = (max: number) => fc.uint8Array({ maxLength: max });

/** The message cut at the given points into consecutive parts (some of them empty). */
function cut(message: Uint8Array, points: number[]): Uint8Array[] {
  const at = [0, ...points.map((p) => p % (message.length + 1)).sort((a, b) => a - b), message.length];
  return at.slice(1).map((end, i) => message.subarray(at[i], end));
}

describe('sha256Parts, hmacParts and hmacOnce', () => {
  it('hash the FIPS 180-4 "abc" and empty messages to their known digests', () => {
    expect(bytesToHex(sha256Parts([utf8('abc')]))).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(bytesToHex(sha256Parts([]))).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
  });

  it('equal @noble/hashes for every message length from 0 to 200 bytes', () => {
    for (let length = 0; length <= 200; length++) {
      const message = Uint8Array.from({ length }, (_, i) => (i * 31 + length) & 255);
      const key = message.subarray(0, length % 97);
      expect(bytesToHex(sha256Parts([message])), `sha256 ${length}`).toBe(bytesToHex(sha256(message)));
      expect(bytesToHex(hmacParts(hmacKey(key), [message])), `hmac ${length}`).toBe(
        bytesToHex(hmac(sha256, key, message)),
      );
      // Keys of every length around the block too, the ones longer than a block hashed first.
      expect(bytesToHex(hmacOnce(message, [key])), `hmacOnce ${length}`).toBe(
        bytesToHex(hmac(sha256, message, key)),
      );
    }
  });

  it('equal @noble/hashes for random keys and messages given in random parts', () => {
    fc.assert(
      fc.property(
        bytesArb(200),
        bytesArb(400),
        fc.array(fc.nat(), { maxLength: 5 }),
        (key, message, points) => {
          const parts = cut(message, points);
          expect(bytesToHex(hmacParts(hmacKey(key), parts))).toBe(bytesToHex(hmac(sha256, key, message)));
          expect(bytesToHex(sha256Parts(parts))).toBe(bytesToHex(sha256(message)));
          expect(bytesToHex(hmacOnce(key, parts))).toBe(bytesToHex(hmac(sha256, key, message)));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('keep a key usable across other keys and MACs in between', () => {
    fc.assert(
      fc.property(bytesArb(80), bytesArb(80), bytesArb(150), bytesArb(150), (a, b, m, n) => {
        const keyA = hmacKey(a);
        const first = bytesToHex(hmacParts(keyA, [m]));
        const keyB = hmacKey(b);
        expect(bytesToHex(hmacParts(keyB, [n]))).toBe(bytesToHex(hmac(sha256, b, n)));
        sha256Parts([n, m]);
        expect(bytesToHex(hmacParts(keyA, [m]))).toBe(first);
        expect(first).toBe(bytesToHex(hmac(sha256, a, m)));
      }),
      { numRuns: 100 },
    );
  });

  it('hand out tags of their own: a later MAC does not change an earlier one', () => {
    fc.assert(
      fc.property(bytesArb(80), bytesArb(80), bytesArb(150), (a, b, m) => {
        const once = hmacOnce(a, [m]);
        const keyed = hmacParts(hmacKey(b), [m]);
        hmacOnce(b, [m]);
        hmacParts(hmacKey(a), [m]);
        expect(bytesToHex(once)).toBe(bytesToHex(hmac(sha256, a, m)));
        expect(bytesToHex(keyed)).toBe(bytesToHex(hmac(sha256, b, m)));
      }),
      { numRuns: 100 },
    );
  });
});
