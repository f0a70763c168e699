import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesToHex } from '../../src/encoding/hex';
import { utf8 } from '../../src/encoding/utf8';
import { canonicalJson, canonicalJsonAsSent, type JsonValue } from '../../src/receipts/jcs';
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
      expect(canonicalJsonAsSent(JSON.parse(input))).toBe(output);
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

// Values as a response holds them before JSON.stringify sends them: undefined members and items,
// toJSON, NaN and infinities (sent as null), -0, lone surrogates (which have no JCS form at all).
const { sent } = fc.letrec<{ sent: unknown; leaf: unknown }>((tie) => ({
  leaf: fc.oneof(
    fc.constant(undefined),
    fc.constant(null),
    fc.boolean(),
    fc.double(),
    fc.integer(),
    fc.string(),
    fc.string({ unit: 'binary' }),
    fc.constantFrom('\uD800', 'a\uDC00b', '\u2028\u0000"\\'),
    fc.date(),
    tie('sent').map((inner) => ({ toJSON: () => inner })),
  ),
  sent: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    tie('leaf'),
    fc.array(tie('sent'), { maxLength: 5 }),
    fc.dictionary(fc.string(), tie('sent'), { maxKeys: 5 }),
  ),
}));

function outcome(serialize: () => string): { text: string } | { threw: true } {
  try {
    return { text: serialize() };
  } catch {
    return { threw: true };
  }
}

describe('canonicalJsonAsSent', () => {
  it('is the JCS of the value after a JSON round trip, for values with undefined members, toJSON and NaN', () => {
    fc.assert(
      fc.property(sent, (value) => {
        expect(outcome(() => canonicalJsonAsSent(value))).toEqual(
          outcome(() => canonicalJson(JSON.parse(JSON.stringify(value)) as JsonValue)),
        );
      }),
      { numRuns: 2000 },
    );
  });

  it('drops undefined members and writes undefined items, NaN and Infinity as null', () => {
    expect(canonicalJsonAsSent({ b: undefined, a: [undefined, Number.NaN, -Infinity, -0] })).toBe(
      '{"a":[null,null,null,0]}',
    );
    expect(canonicalJsonAsSent({ z: { toJSON: () => 'x' }, y: new Date(0) })).toBe(
      '{"y":"1970-01-01T00:00:00.000Z","z":"x"}',
    );
    expect(() => canonicalJsonAsSent(undefined)).toThrow(TypeError);
    expect(() => canonicalJsonAsSent({ a: '\uD800' })).toThrow();
  });
});
