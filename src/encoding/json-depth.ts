// The one depth rule for every JSON text Valve parses, whoever wrote it: a request body, a tool call's
// arguments a caller sends back, a provider's answer. JSON.parse copes with any depth, but what walks
// the value afterwards (schemas, canonical JSON, receipts) recurses, and a deep enough value overflows
// the stack: so the depth is checked on the text, before anything parses it.

/** How deep JSON may nest (objects and arrays); documented in the README. */
export const maxJsonDepth = 64;

const structural = /["[\]{}]/g;
const stringEnd = /["\\]/g;

/**
 * A scanner of JSON text that may arrive in pieces (a tool call's arguments, streamed): fed each piece
 * in order, it answers the offset (UTF-16 units, from the start of the whole text) of the first `[` or
 * `{` that opens a level deeper than `limit`, or -1. It skips strings without parsing, so it runs
 * before anything recurses into the value; text that is not JSON is left for the parser to reject.
 */
export function createDepthScanner(limit = maxJsonDepth): (piece: string) => number {
  let depth = 0;
  let inString = false;
  // The last piece ended on the backslash of an escape: the next piece's first character is escaped.
  let escaped = false;
  let seen = 0;
  return (text) => {
    let at = 0;
    if (escaped && text !== '') {
      escaped = false;
      at = 1;
    }
    for (;;) {
      if (inString) {
        stringEnd.lastIndex = at;
        const end = stringEnd.exec(text);
        if (end === null) break;
        if (end[0] === '"') {
          inString = false;
          at = end.index + 1;
        } else if (end.index + 1 >= text.length) {
          escaped = true;
          break;
        } else at = end.index + 2; // skip the escaped character
        continue;
      }
      structural.lastIndex = at;
      const match = structural.exec(text);
      if (match === null) break;
      at = match.index + 1;
      const char = match[0];
      if (char === '"') inString = true;
      else if (char === '[' || char === '{') {
        depth++;
        if (depth > limit) return seen + match.index;
      } else depth--;
    }
    seen += text.length;
    return -1;
  };
}

/** The offset (UTF-16 units) of the first `[` or `{` that opens a level deeper than `limit`, or -1. */
export function tooDeepAt(text: string, limit = maxJsonDepth): number {
  return createDepthScanner(limit)(text);
}

/**
 * `JSON.parse` under the depth rule, for a caller that already answers a SyntaxError: text deeper than
 * `limit` throws one too, before anything parses it.
 */
export function parseJsonWithin(text: string, limit = maxJsonDepth): unknown {
  const offset = tooDeepAt(text, limit);
  if (offset >= 0)
    throw new SyntaxError(`JSON nests deeper than ${limit} levels of objects and arrays (at ${offset}).`);
  return JSON.parse(text) as unknown;
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
