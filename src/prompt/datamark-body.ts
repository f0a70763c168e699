// Datamark mode's body in one pass: with one space in six characters of prose, `replaceAll(' ', mark)`
// or `split`/`join` build a string per space. Writing every unit into a buffer and decoding it once as
// UTF-16 is about three times faster than escaping, marking and referencing in three passes (1 MB of
// prose, Node 20).

/** ECMAScript's `\s`: WhiteSpace and LineTerminator (a test checks this list against the regex). */
export const whitespaceUnits = [
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006,
  0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff,
];

// What each unit becomes: undefined (itself), or the units of its entity or `&#xHEX;` reference. The
// space is special-cased in the loop, since its replacement (the marker) differs per request.
const replacements = new Map<number, number[]>();
const unitsOf = (text: string) => Array.from(text, (char) => char.charCodeAt(0));
for (const unit of whitespaceUnits) {
  if (unit !== 0x20) replacements.set(unit, unitsOf(`&#x${unit.toString(16).toUpperCase()};`));
}
for (const [char, entity] of [
  ['&', '&amp;'],
  ['<', '&lt;'],
  ['>', '&gt;'],
  ['"', '&quot;'],
] as const) {
  replacements.set(char.charCodeAt(0), unitsOf(entity));
}
const special = new Uint8Array(0x10000);
for (const unit of replacements.keys()) special[unit] = 1;
special[0x20] = 1;

const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const utf16 = new TextDecoder('utf-16le', { fatal: false, ignoreBOM: true });
const longest = 8; // `&#x2029;`
// Reused across calls, up to `keptUnits` (512 KiB).
const keptUnits = 1 << 18;
let buffer = new Uint16Array(0);

function slowly(text: string, mark: string): string {
  let out = '';
  for (const char of text) {
    const units = replacements.get(char.charCodeAt(0));
    out += char === ' ' ? mark : units === undefined ? char : String.fromCharCode(...units);
  }
  return out;
}

/**
 * `text` entity-escaped (`& < > "`), with every space replaced by `mark` (one UTF-16 unit) and any
 * other whitespace by its `&#xHEX;` reference. `text` must be well formed: the UTF-16 decoder would
 * turn a lone surrogate into U+FFFD (normalized text never has one).
 */
export function datamarkBody(text: string, mark: string): string {
  if (!littleEndian || mark.length !== 1) return slowly(text, mark);
  const length = text.length;
  // Room for the text and a quarter more; an entity-dense text grows the buffer as it goes.
  let units = buffer.length >= length + longest ? buffer : new Uint16Array(length + (length >> 2) + longest);
  const code = mark.charCodeAt(0);
  let out = 0;
  for (let i = 0; i < length; i++) {
    const unit = text.charCodeAt(i);
    if (special[unit] === 0) {
      units[out++] = unit;
    } else if (unit === 0x20) {
      units[out++] = code;
    } else {
      // Room for this reference and for the rest of the text as it is.
      if (out + longest + (length - i) > units.length) {
        const grown = new Uint16Array(Math.max(units.length * 2, out + longest + (length - i)));
        grown.set(units.subarray(0, out));
        units = grown;
      }
      for (const replacement of replacements.get(unit) ?? []) units[out++] = replacement;
    }
  }
  const body = utf16.decode(units.subarray(0, out));
  // Keep a buffer for the next region, but not one a huge item grew.
  buffer = units.length <= keptUnits ? units : buffer;
  return body;
}
