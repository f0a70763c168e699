// Text that normalization can only change by neutralizing chat-template tokens: every UTF-16 unit is in
// the ranges below. Each one is an assigned character that is no surrogate, no private-use character
// (datamark's marker is one), none of the removable invisible characters, and NFC-inert: NFC quick
// check Yes and canonical combining class 0, so by the quick-check rule of UAX #15 (Unicode
// Normalization Forms, section 9) text made only of them is already in NFC. A test derives those
// properties for every listed unit from the runtime's own `normalize`, so a wrong range cannot pass.
//
// The ranges are few and broad on purpose: V8 scans a class of up to 16 ranges about as fast as one
// range, and one more range (or the full NFC-inert set, 76 ranges in the BMP) about ten times slower.
// Latin, Greek, Cyrillic, general punctuation, currency, CJK punctuation, kana, the CJK ideographs and
// Hangul syllables cover most prose; anything else takes the general normalization path.
const ranges =
  '\\x00-\\xAC\\xAE-\\u02FF\\u0388-\\u038A\\u038C\\u038E-\\u03A1\\u03A3-\\u0482\\u0488-\\u052F' +
  '\\u2010-\\u2029\\u202F-\\u205F\\u20A0-\\u20C0\\u3000-\\u3029\\u3030-\\u303F\\u3041-\\u3096\\u309B-\\u30FF' +
  '\\u4E00-\\u9FFF\\uAC00-\\uD7A3';

/** Matches a unit outside the plain ranges (exported for the test that checks every range). */
export const unplainUnit = new RegExp(`[^${ranges}]`);

/**
 * Whether normalization leaves `text` as it is but for chat-template tokens: well formed, no invisible,
 * bidi or private-use character, and already in NFC. One native scan instead of four.
 */
export function isPlainText(text: string): boolean {
  return !unplainUnit.test(text);
}
