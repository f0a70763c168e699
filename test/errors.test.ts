import { describe, expect, it } from 'vitest';
import { ApiError, lookupErrorCode, registeredErrorCodes } from '../src/errors';
import { modelErrorKinds } from '../src/model/model-error';

const sources = import.meta.glob<string>('../src/**/*.ts', { query: '?raw', import: 'default', eager: true });

describe('the error code registry', () => {
  it('has exactly the seed ModelError kinds in the model layer', () => {
    const model = registeredErrorCodes().filter((code) => code.startsWith('model.'));
    expect(model.sort()).toEqual(modelErrorKinds.map((kind) => `model.${kind}`).sort());
  });

  it('registers every literal code the source throws', () => {
    const used = new Set<string>();
    for (const text of Object.values(sources)) {
      for (const match of text.matchAll(/new ApiError\(\s*'([a-z_]+\.[a-z_]+)'/g))
        used.add(match[1] as string);
    }
    expect(used.size).toBeGreaterThan(5);
    const registered = new Set(registeredErrorCodes());
    expect([...used].filter((code) => !registered.has(code))).toEqual([]);
  });

  it('gives every code a 4xx or 5xx status and a layer for its category', () => {
    for (const code of registeredErrorCodes()) {
      const entry = lookupErrorCode(code);
      expect(entry.status).toBeGreaterThanOrEqual(400);
      expect(entry.status).toBeLessThan(600);
      expect(code.startsWith(`${entry.category}.`)).toBe(true);
    }
  });

  it('treats an unregistered code as internal.error', () => {
    const error = new ApiError('nope.nothing', 'x');
    expect([error.code, error.status]).toEqual(['internal.error', 500]);
  });
});
