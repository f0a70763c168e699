/** How deep a request body's JSON may nest (objects and arrays); documented in the README. */
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
