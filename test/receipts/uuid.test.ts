import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesToHex } from '../../src/encoding/hex';
import { uuidToBytes } from '../../src/receipts/uuid';

describe('uuidToBytes', () => {
  it('gives the 16 bytes the canonical text spells, for any UUID', () => {
    fc.assert(
      fc.property(fc.uuid(), (uuid) => {
        expect(bytesToHex(uuidToBytes(uuid))).toBe(uuid.replace(/-/g, ''));
      }),
      { numRuns: 300 },
    );
    expect(bytesToHex(uuidToBytes('00000000-0000-0000-0000-000000000000'))).toBe('0'.repeat(32));
    expect(bytesToHex(uuidToBytes('ffffffff-ffff-ffff-ffff-ffffffffffff'))).toBe('f'.repeat(32));
    expect(bytesToHex(uuidToBytes('0190d5a8-7b3c-7def-8123-456789abcdef'))).toBe(
      '0190d5a87b3c7def8123456789abcdef',
    );
  });

  it('refuses text that is not a lowercase canonical UUID', () => {
    for (const text of [
      '0190D5A8-7B3C-7DEF-8123-456789ABCDEF',
      '0190d5a87b3c7def8123456789abcdef',
      'x',
      '',
    ]) {
      expect(() => uuidToBytes(text), text).toThrow(TypeError);
    }
  });
});
