import { sha256 } from '@noble/hashes/sha2.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesToHex } from '../../src/encoding/hex';
import { compressBlock, SHA256_IV, Sha256Stream } from '../../src/encoding/sha256-stream';
import { utf8 } from '../../src/encoding/utf8';

// The stream under hmac-sha256.ts: FIPS 180-4's examples (NIST's "abc", the two-block 448-bit
// message, a million "a"), then the library's digests for random messages fed in random pieces, and
// a resumed chaining state.

function digestOf(pieces: Uint8Array[]): string {
  const stream = new Sha256Stream();
  stream.resume(SHA256_IV, 0);
  for (const piece of pieces) stream.update(piece);
  const out = new Uint8Array(32);
  stream.finish(out);
  return bytesToHex(out);
}

describe('Sha256Stream', () => {
  it('hashes the FIPS 180-4 examples to their published digests', () => {
    expect(digestOf([utf8('abc')])).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(digestOf([utf8('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')])).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
    // A million "a" in pieces of 1,000 that do not line up with the 64-byte block.
    const piece = new Uint8Array(1000).fill(0x61);
    expect(digestOf(Array.from({ length: 1000 }, () => piece))).toBe(
      'cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0',
    );
  });

  it('equals @noble/hashes for random messages in random pieces, and is reusable after finish', () => {
    const stream = new Sha256Stream();
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 700 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        (message, cuts) => {
          const at = [0, ...cuts.map((c) => c % (message.length + 1)).sort((a, b) => a - b), message.length];
          stream.resume(SHA256_IV, 0);
          for (let i = 1; i < at.length; i++) stream.update(message.subarray(at[i - 1], at[i]));
          const out = new Uint8Array(32);
          stream.finish(out);
          expect(bytesToHex(out)).toBe(bytesToHex(sha256(message)));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('resumes from the chaining state after a first block as if that block had been fed', () => {
    const first = Uint8Array.from({ length: 64 }, (_, i) => (i * 13) & 255);
    const rest = utf8('the rest of the message, shorter than a block or not');
    const state = Int32Array.from(SHA256_IV);
    compressBlock(state, first, 0);
    const stream = new Sha256Stream();
    stream.resume(state, 64);
    stream.update(rest);
    const out = new Uint8Array(32);
    stream.finish(out);
    const whole = new Uint8Array(64 + rest.length);
    whole.set(first);
    whole.set(rest, 64);
    expect(bytesToHex(out)).toBe(bytesToHex(sha256(whole)));
  });
});
