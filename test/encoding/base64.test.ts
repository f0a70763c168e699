import { describe, expect, it } from 'vitest';
import {
  decodeBase64,
  decodeBase64Url,
  encodeBase64,
  encodeBase64Url,
  portableEncoders,
} from '../../src/encoding/base64';
import { bytesToHex, portableHex } from '../../src/encoding/hex';
import { decodeUtf8, hasLoneSurrogate, replaceLoneSurrogates, utf8 } from '../../src/encoding/utf8';

function viaBtoa(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

// Both encoders: the runtime's own where it has one (workerd, where these tests run) and the portable
// code that Node 20 and older browsers use.
const encoders = [
  { name: 'the runtime’s encoder', encodeBase64, encodeBase64Url },
  { name: 'the portable encoder', ...portableEncoders },
];

describe.each(encoders)('the one base64 codec, $name', ({ encodeBase64, encodeBase64Url }) => {
  it('encodes every length and byte value exactly as btoa does, across the chunk boundary', () => {
    for (const length of [0, 1, 2, 3, 4, 5, 255, 256, 6143, 6144, 6145, 20_000]) {
      const bytes = new Uint8Array(length);
      for (let i = 0; i < length; i++) bytes[i] = (i * 151 + length) & 255;
      expect(encodeBase64(bytes)).toBe(viaBtoa(bytes));
      expect(decodeBase64(encodeBase64(bytes))).toEqual(bytes);
    }
  });

  it('passes the RFC 4648 section 10 vectors, padded and as base64url', () => {
    const vectors = [
      ['', ''],
      ['f', 'Zg=='],
      ['fo', 'Zm8='],
      ['foo', 'Zm9v'],
      ['foob', 'Zm9vYg=='],
      ['fooba', 'Zm9vYmE='],
      ['foobar', 'Zm9vYmFy'],
    ];
    for (const [text, encoded] of vectors) {
      expect(encodeBase64(utf8(text as string))).toBe(encoded);
      expect(encodeBase64Url(utf8(text as string))).toBe((encoded as string).replace(/=+$/, ''));
      expect(decodeBase64Url((encoded as string).replace(/=+$/, ''))).toEqual(utf8(text as string));
    }
  });

  it('encodes base64url as the padded encoding with the URL alphabet, for every small length and byte', () => {
    // The small-input table and the btoa path must agree on both sides of the size where they switch.
    for (let length = 0; length <= 300; length++) {
      const bytes = new Uint8Array(length);
      for (let i = 0; i < length; i++) bytes[i] = (i * 151 + length * 7) & 255;
      const expected = viaBtoa(bytes).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
      expect(encodeBase64Url(bytes)).toBe(expected);
      expect(decodeBase64Url(expected)).toEqual(bytes);
    }
    const every = Uint8Array.from({ length: 256 }, (_, i) => i);
    for (let start = 0; start < 256; start += 32) {
      const slice = every.subarray(start, start + 32);
      expect(encodeBase64Url(slice)).toBe(
        viaBtoa(slice).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_'),
      );
    }
  });

  it('encodes a view into a larger buffer as its own bytes only', () => {
    const buffer = Uint8Array.from({ length: 64 }, (_, i) => (i * 37) & 255);
    const view = buffer.subarray(5, 38);
    expect(encodeBase64(view)).toBe(viaBtoa(Uint8Array.from(view)));
    expect(encodeBase64Url(view)).toBe(
      viaBtoa(Uint8Array.from(view)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_'),
    );
  });

  it('round-trips base64url without padding and rejects non-canonical text', () => {
    const bytes = new Uint8Array([251, 255, 191, 0, 1]);
    expect(encodeBase64Url(bytes)).toBe('-_-_AAE');
    expect(decodeBase64Url('-_-_AAE')).toEqual(bytes);
    expect(decodeBase64('QQ=')).toBeNull();
    expect(decodeBase64('QR==')).toBeNull();
    expect(decodeBase64Url('-_-_AAF')).toBeNull();
  });
});

describe('lowercase hex', () => {
  it('encodes every byte value, and a view of a larger buffer, the same with either encoder', () => {
    const every = Uint8Array.from({ length: 256 }, (_, i) => i);
    const expected = Array.from(every, (b) => b.toString(16).padStart(2, '0')).join('');
    expect(bytesToHex(every)).toBe(expected);
    expect(portableHex(every)).toBe(expected);
    expect(bytesToHex(every.subarray(250, 253))).toBe('fafbfc');
    expect(portableHex(every.subarray(250, 253))).toBe('fafbfc');
    expect(bytesToHex(new Uint8Array(0))).toBe('');
  });
});

describe('UTF-8', () => {
  it('decodes strictly and keeps a BOM', () => {
    expect(decodeUtf8(utf8('\uFEFFé😀'))).toBe('\uFEFFé😀');
    expect(decodeUtf8(new Uint8Array([0xc3]))).toBeNull();
  });

  it('finds and replaces lone surrogates but leaves pairs alone', () => {
    expect(hasLoneSurrogate('a😀b')).toBe(false);
    expect(hasLoneSurrogate('a\uD800b')).toBe(true);
    expect(replaceLoneSurrogates('\uDC00😀\uD800')).toBe('\uFFFD😀\uFFFD');
  });
});
