import { describe, expect, it } from 'vitest';
import { bytesToHex } from '../../src/encoding/hex';
import { utf8 } from '../../src/encoding/utf8';
import { canonicalJson, type JsonValue } from '../../src/receipts/jcs';
import { jcsFiles as files } from '../shared-data';

// RFC 8785 vectors: ../shared/data/jcs/ (cyberphone/json-canonicalization testdata, Apache-2.0).
const names = Object.keys(files)
  .filter((path) => path.startsWith('input/'))
  .map((path) => path.slice('input/'.length, -'.json'.length));

describe('canonicalJson', () => {
  it.skipIf(names.length === 0)('finds all six RFC 8785 vector files', () => {
    expect(names.sort()).toEqual(['arrays', 'french', 'structures', 'unicode', 'values', 'weird']);
  });

  it.skipIf(names.length === 0).each(names)(
    'canonicalizes the %s vector to its exact output bytes',
    (name) => {
      const input = files[`input/${name}.json`] as string;
      const output = files[`output/${name}.json`] as string;
      const outhex = (files[`outhex/${name}.txt`] as string).replace(/\s+/g, '');
      const canonical = canonicalJson(JSON.parse(input) as JsonValue);
      expect(canonical).toBe(output);
      expect(bytesToHex(utf8(canonical))).toBe(outhex);
    },
  );

  it('canonicalizes the RFC 8785 section 3.2.2 sample', () => {
    const input = JSON.parse(
      '{"numbers":[333333333.33333329,1E30,4.50,2e-3,0.000000000000000000000000001],' +
        '"string":"\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/","literals":[null,true,false]}',
    ) as JsonValue;
    expect(canonicalJson(input)).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],' +
        '"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  it('sorts member names by UTF-16 code units, not by code points or locale', () => {
    // U+1F600 is the surrogate pair D83D DE00, which sorts before U+FB33 by code unit.
    expect(canonicalJson({ '\uFB33': 1, '\u{1F600}': 2, a: 3, A: 4 })).toBe(
      '{"A":4,"a":3,"\u{1F600}":2,"\uFB33":1}',
    );
  });

  it('refuses NaN, Infinity and lone surrogates', () => {
    expect(() => canonicalJson(Number.NaN)).toThrow();
    expect(() => canonicalJson([Number.POSITIVE_INFINITY])).toThrow();
    expect(() => canonicalJson({ k: '\uD800' })).toThrow();
  });

  it('refuses a value that has no JSON form', () => {
    expect(() => canonicalJson(undefined as unknown as JsonValue)).toThrow(TypeError);
  });
});
