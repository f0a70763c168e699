import { describe, expect, it } from 'vitest';
import {
  escapeControlCharacters,
  escapeControlCharactersInLines,
} from '../../src/encoding/escape-control-characters';

describe('escapeControlCharacters', () => {
  it('writes C0, DEL, C1, the line separators and every bidi control as \\u escapes', () => {
    const raw =
      '\u0000\u0007\t\n\r\u001b\u007f\u0080\u009b\u009f\u061c\u200e\u200f\u2028\u2029\u202a\u202e\u2066\u2069';
    expect(escapeControlCharacters(raw)).toBe(
      '\\u0000\\u0007\\u0009\\u000a\\u000d\\u001b\\u007f\\u0080\\u009b\\u009f\\u061c\\u200e\\u200f\\u2028\\u2029\\u202a\\u202e\\u2066\\u2069',
    );
  });

  it('leaves printable text alone, accents, emoji and the zero-width joiner of an emoji included', () => {
    const text = 'entry 3 of 4: café, 東京, 👩‍💻, "quoted" \\ backslash ~';
    expect(escapeControlCharacters(text)).toBe(text);
  });

  it('keeps the line breaks of multi-line text and JSON, and the JSON parses to the same value', () => {
    const value = { origin: '\u001b[32mVERIFIED\u009b1A\u202e' };
    const json = JSON.stringify(value, null, 2);
    const printable = escapeControlCharactersInLines(json);
    expect(printable.split('\n')).toHaveLength(json.split('\n').length);
    expect(printable).not.toMatch(/[\u009b\u202e]/);
    expect(JSON.parse(printable)).toEqual(value);
  });
});
