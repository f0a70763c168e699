import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findDuplicateKeys, findIJsonProblems, parseIJson } from '../../src/receipts/i-json';
import { jcsFiles } from '../shared-data';

describe('findIJsonProblems', () => {
  it('accepts plain JSON data', () => {
    expect(findIJsonProblems({ a: [1, -2.5, 'x', true, null, { b: {} }], '😀': 9007199254740991 })).toEqual(
      [],
    );
  });

  it('reports each problem with its JSON Pointer, in document order', () => {
    const value = {
      a: [1, Number.NaN, '\uDC00ok'],
      'x/y~z': Number.POSITIVE_INFINITY,
      big: 2 ** 53,
      neg: -(2 ** 53),
      '\uD800': 1,
      fn: () => 1,
      u: undefined,
      n: 10n,
      d: new Date(0),
      m: new Map(),
    };
    expect(findIJsonProblems(value)).toEqual([
      { path: '/a/1', problem: 'non-finite-number' },
      { path: '/a/2', problem: 'lone-surrogate' },
      { path: '/x~1y~0z', problem: 'non-finite-number' },
      { path: '/big', problem: 'unsafe-integer' },
      { path: '/neg', problem: 'unsafe-integer' },
      { path: '/\uFFFD', problem: 'lone-surrogate-in-key' },
      { path: '/fn', problem: 'unsupported-type' },
      { path: '/u', problem: 'unsupported-type' },
      { path: '/n', problem: 'unsupported-type' },
      { path: '/d', problem: 'non-plain-object' },
      { path: '/m', problem: 'non-plain-object' },
    ]);
  });

  it('accepts the largest safe integers and well-formed surrogate pairs', () => {
    expect(findIJsonProblems([2 ** 53 - 1, -(2 ** 53 - 1), 1.5, '\uD83D\uDE00'])).toEqual([]);
  });

  const valuesVector = jcsFiles['input/values.json'];
  it.skipIf(valuesVector === undefined)(
    'flags the 1E30 of the RFC 8785 values vector, which JCS canonicalizes',
    () => {
      expect(findIJsonProblems(JSON.parse(valuesVector as string))).toEqual([
        { path: '/numbers/1', problem: 'unsafe-integer' },
      ]);
    },
  );

  it('reports holes in arrays, cycles, boxed primitives and class instances', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    // biome-ignore lint/suspicious/noSparseArray: the hole is the point
    expect(findIJsonProblems([1, , 3])).toEqual([{ path: '/1', problem: 'sparse-array' }]);
    expect(findIJsonProblems(cyclic)).toEqual([{ path: '/self', problem: 'cycle' }]);
    expect(findIJsonProblems([new String('s'), new (class Point {})()])).toEqual([
      { path: '/0', problem: 'non-plain-object' },
      { path: '/1', problem: 'non-plain-object' },
    ]);
  });

  it('allows the same object twice when it is not its own ancestor', () => {
    const shared = { k: 1 };
    expect(findIJsonProblems({ a: shared, b: shared })).toEqual([]);
  });

  it('walks a nesting far deeper than the call stack allows', () => {
    const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    expect(findIJsonProblems(deep)).toEqual([]);
  });

  it('never reports the offending values themselves', () => {
    const problems = findIJsonProblems({ secret: '\uD800SECRET', n: Number.NaN });
    expect(JSON.stringify(problems)).not.toContain('SECRET');
  });
});

describe('findDuplicateKeys', () => {
  it('finds a repeated member name at any depth, with its path', () => {
    expect(findDuplicateKeys('{"a":1,"b":{"c":[{"d":1,"d":2}]},"a":3}')).toEqual([
      { path: '/b/c/0/d', problem: 'duplicate-key' },
      { path: '/a', problem: 'duplicate-key' },
    ]);
  });

  it('compares names after unescaping', () => {
    expect(findDuplicateKeys('{"a":1,"\\u0061":2}')).toEqual([{ path: '/a', problem: 'duplicate-key' }]);
    expect(findDuplicateKeys('{"\\"":1,"\\u0022":2}')).toEqual([{ path: '/"', problem: 'duplicate-key' }]);
  });

  it('is not fooled by names that appear as values, or by escaped quotes and brackets in strings', () => {
    expect(findDuplicateKeys('{"a":"a","b":["a","a"],"c":"\\"a\\":{[,","d":{"a":1}}')).toEqual([]);
  });

  it('treats equal names in different objects as distinct', () => {
    expect(findDuplicateKeys('[{"a":1},{"a":2}] ')).toEqual([]);
    expect(findDuplicateKeys(' { "x" : { "a" : 1 } , "y" : { "a" : 2 } } ')).toEqual([]);
  });

  it('counts array indices across nested containers and whitespace', () => {
    expect(findDuplicateKeys('[ 0 , [1,2] , {"k":[]} , {"k":1, "k" :2} ]')).toEqual([
      { path: '/3/k', problem: 'duplicate-key' },
    ]);
  });

  it('finds no duplicates in any JSON.stringify output, compact or indented', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(findDuplicateKeys(JSON.stringify(value))).toEqual([]);
        expect(findDuplicateKeys(JSON.stringify(value, null, 2))).toEqual([]);
      }),
    );
  });

  it('finds a duplicate spliced into any object of random JSON', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.jsonValue(), { minKeys: 1 }),
        fc.jsonValue(),
        (obj, extra) => {
          const [key] = Object.keys(obj) as [string];
          const text = JSON.stringify({ wrap: [obj] });
          const spliced = `${text.slice(0, -3)},${JSON.stringify(key)}:${JSON.stringify(extra)}}]}`;
          expect(JSON.parse(spliced)).toBeTruthy();
          expect(findDuplicateKeys(spliced).map((p) => p.path)).toContain(
            `/wrap/0/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`,
          );
        },
      ),
    );
  });
});

describe('parseIJson', () => {
  it('returns the parsed value of I-JSON text', () => {
    expect(parseIJson('{"a":[1,"x"]}')).toEqual({ ok: true, value: { a: [1, 'x'] } });
  });

  it('rejects duplicate names that JSON.parse would silently collapse', () => {
    expect(parseIJson('{"a":1,"a":2}')).toEqual({
      ok: false,
      problems: [{ path: '/a', problem: 'duplicate-key' }],
    });
  });

  it('rejects escaped lone surrogates and oversized integers', () => {
    expect(parseIJson('["\\ud800", 9007199254740993]')).toEqual({
      ok: false,
      problems: [
        { path: '/0', problem: 'lone-surrogate' },
        { path: '/1', problem: 'unsafe-integer' },
      ],
    });
  });

  it('reports a syntax error without echoing the input', () => {
    expect(parseIJson('{"secret": tru')).toEqual({ ok: false, problems: [{ path: '', problem: 'syntax' }] });
    expect(parseIJson('\uFEFF{}')).toEqual({ ok: false, problems: [{ path: '', problem: 'syntax' }] });
  });
});
