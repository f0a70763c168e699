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

/**
 * The JCS of a value exactly as JSON.stringify sends it, i.e. JCS(JSON.parse(JSON.stringify(value))),
 * in one pass and without that round trip: a response is committed as the caller receives it, so this
 * follows JSON.stringify's own steps (ECMA-262 SerializeJSONProperty: toJSON called once with its key,
 * boxed primitives unwrapped, NaN and ±Infinity written as null, undefined and functions dropped from
 * objects and written as null in arrays) and writes the result in RFC 8785 form (members sorted by
 * UTF-16 code units, numbers and strings as ECMAScript writes them). A lone surrogate has no JCS form
 * and throws, as does a value JSON.stringify cannot write (a BigInt, a cycle) or does not write at all.
 */
export function canonicalJsonAsSent(value: unknown): string {
  const text = sentText(value, '');
  if (text === undefined) throw new TypeError('value has no JSON representation');
  return text;
}

interface WellFormed {
  isWellFormed(): boolean;
}

function quote(text: string): string {
  if (!(text as unknown as WellFormed).isWellFormed()) throw new TypeError('lone surrogate in a string');
  return JSON.stringify(text);
}

function sentText(given: unknown, key: string): string | undefined {
  let value = given;
  if (typeof value === 'object' && value !== null) {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') value = toJSON.call(value, key);
  }
  if (typeof value === 'object' && value !== null) {
    if (value instanceof Number) value = Number(value);
    else if (value instanceof String) value = String(value);
    else if (value instanceof Boolean) value = value.valueOf();
  }
  switch (typeof value) {
    case 'string':
      return quote(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      throw new TypeError('a BigInt has no JSON representation');
    case 'object':
      if (value === null) return 'null';
      return Array.isArray(value) ? arrayText(value) : objectText(value as Record<string, unknown>);
    default:
      return undefined;
  }
}

function arrayText(items: readonly unknown[]): string {
  let text = '[';
  for (let i = 0; i < items.length; i++) {
    if (i > 0) text += ',';
    text += sentText(items[i], String(i)) ?? 'null';
  }
  return `${text}]`;
}

function objectText(members: Record<string, unknown>): string {
  let text = '{';
  for (const name of Object.keys(members).sort()) {
    const member = sentText(members[name], name);
    if (member === undefined) continue;
    if (text.length > 1) text += ',';
    text += `${quote(name)}:${member}`;
  }
  return `${text}}`;
}
