// The one depth rule for every JSON text Valve parses, whoever wrote it: a request body, a tool call's
// arguments a caller sends back, a provider's answer. JSON.parse copes with any depth, but what walks
// the value afterwards (schemas, canonical JSON, receipts) recurses, and a deep enough value overflows
// the stack: so the depth is checked on the text, before anything parses it.

/** How deep JSON may nest (objects and arrays); documented in the README. */
export const maxJsonDepth = 64;

const structural = /["[\]{}]/g;
const stringEnd = /["\\]/g;

/**
 * The offset (UTF-16 units) of the first `[` or `{` that opens a level deeper than `limit`, or -1.
 * Scans the raw text without parsing it, skipping strings, so it runs before anything recurses
 * into the value; text that is not JSON is left for the parser to reject.
 */
export function tooDeepAt(text: string, limit = maxJsonDepth): number {
  let depth = 0;
  structural.lastIndex = 0;
  for (let match = structural.exec(text); match !== null; match = structural.exec(text)) {
    const char = match[0];
    if (char === '"') {
      stringEnd.lastIndex = match.index + 1;
      for (let end = stringEnd.exec(text); ; end = stringEnd.exec(text)) {
        if (end === null) return -1;
        if (end[0] === '"') {
          structural.lastIndex = end.index + 1;
          break;
        }
        stringEnd.lastIndex = end.index + 2; // skip the escaped character
      }
    } else if (char === '[' || char === '{') {
      depth++;
      if (depth > limit) return match.index;
    } else depth--;
  }
  return -1;
}

/** JSON text parsed within the depth rule, or why not: too deep (where), or not JSON at all. */
export type ParsedJson =
  | { ok: true; value: unknown }
  | { ok: false; problem: 'too_deep'; offset: number }
  | { ok: false; problem: 'not_json' };

/** `JSON.parse`, refusing text that nests deeper than `limit` before parsing it. */
export function parseJson(text: string, limit = maxJsonDepth): ParsedJson {
  const offset = tooDeepAt(text, limit);
  if (offset >= 0) return { ok: false, problem: 'too_deep', offset };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, problem: 'not_json' };
  }
}
