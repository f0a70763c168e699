import canonicalize from 'canonicalize';

/** A JSON value as JSON.parse returns it. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/**
 * The RFC 8785 (JCS) serialization of a value. Pure canonicalization: it does not apply Valve's I-JSON
 * policy (RFC 8785's own sample canonicalizes 1E30, which that policy rejects), so callers run
 * `findIJsonProblems` on untrusted values first. `canonicalize` itself throws on NaN, Infinity and
 * lone surrogates; a value with no JSON form at all (undefined, a function) throws here.
 */
export function canonicalJson(value: JsonValue): string {
  const text = canonicalize(value);
  if (text === undefined) throw new TypeError('value has no JSON representation');
  return text;
}
