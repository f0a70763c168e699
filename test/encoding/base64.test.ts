import { describe, expect, it } from 'vitest';
import { decodeBase64, decodeBase64Url, encodeBase64, encodeBase64Url } from '../../src/encoding/base64';
import { decodeUtf8, hasLoneSurrogate, replaceLoneSurrogates, utf8 } from '../../src/encoding/utf8';

function viaBtoa(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

describe('the one base64 codec', () => {
  it('encodes every length and byte value exactly as btoa does, across the chunk boundary', () => {
    for (const length of [0, 1, 2, 3, 4, 5, 255, 256, 6143, 6144, 6145, 20_000]) {
      const bytes = new Uint8Array(length);
      for (let i = 0; i < length; i++) bytes[i] = (i * 151 + length) & 255;
      expect(encodeBase64(bytes)).toBe(viaBtoa(bytes));
      expect(decodeBase64(encodeBase64(bytes))).toEqual(bytes);
    }
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
