import { describe, expect, it } from 'vitest';
import { codePointIndexOfUtf16, utf16IndexOfCodePoint } from '../../src/encoding/code-point-index';
import { utf16IndexOfUtf8 } from '../../src/encoding/utf16-index-of-utf8';

describe('text indices', () => {
  const text = 'a—b🎉c'; // 1 + 3 + 1 + 4 + 1 UTF-8 bytes; 1 + 1 + 1 + 2 + 1 code units; 5 code points

  it('finds the code unit of a UTF-8 byte offset', () => {
    expect([0, 1, 4, 5, 9, 10].map((bytes) => utf16IndexOfUtf8(text, bytes))).toEqual([0, 1, 2, 3, 5, 6]);
    expect(utf16IndexOfUtf8(text, 99)).toBe(6);
  });

  it('finds the code unit of a code point index, and back', () => {
    expect([0, 3, 4, 5, 9].map((n) => utf16IndexOfCodePoint(text, n))).toEqual([0, 3, 5, 6, 6]);
    expect([0, 3, 5, 6].map((i) => codePointIndexOfUtf16(text, i))).toEqual([0, 3, 4, 5]);
  });
});
