import { describe, expect, it } from 'vitest';
import { createDepthScanner, maxJsonDepth, parseJson, tooDeepAt } from '../../src/encoding/json-depth';

const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

describe('parseJson', () => {
  it('parses JSON nested exactly at the limit', () => {
    expect(parseJson(nested(maxJsonDepth))).toEqual({ ok: true, value: JSON.parse(nested(maxJsonDepth)) });
  });

  it('refuses JSON one level deeper, naming where, without parsing it', () => {
    expect(parseJson(nested(maxJsonDepth + 1))).toEqual({
      ok: false,
      problem: 'too_deep',
      offset: maxJsonDepth,
    });
  });

  it('tells text that is not JSON from text that is too deep', () => {
    expect(parseJson('{"a":')).toEqual({ ok: false, problem: 'not_json' });
  });
});

describe('createDepthScanner', () => {
  it('finds the level past the limit across pieces, at its offset in the whole text', () => {
    const text = `{"a":"[[\\"",${nested(maxJsonDepth)}}`;
    const scan = createDepthScanner();
    const found = [...text].map((char) => scan(char)).find((offset) => offset >= 0);
    expect(found).toBe(tooDeepAt(text));
    expect(found).toBe(text.indexOf('['.repeat(maxJsonDepth)) + maxJsonDepth - 1);
  });

  it('does not count brackets inside a string split after an escaping backslash', () => {
    const scan = createDepthScanner(1);
    expect(scan('{"a":"\\')).toBe(-1);
    expect(scan('"[[[[')).toBe(-1);
    expect(scan('"}')).toBe(-1);
  });
});
