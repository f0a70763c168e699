// Indices into text counted in Unicode code points (Python's string indices, as OpenAI's
// `start_index`/`end_index` count characters) against UTF-16 code units (JavaScript's).

/** The UTF-16 index in `text` of its `codePoints`-th code point; past the end, the text's length. */
export function utf16IndexOfCodePoint(text: string, codePoints: number): number {
  let index = 0;
  for (let seen = 0; seen < codePoints && index < text.length; seen++) {
    index += (text.codePointAt(index) ?? 0) > 0xffff ? 2 : 1;
  }
  return index;
}

/** How many code points of `text` come before UTF-16 index `index`. */
export function codePointIndexOfUtf16(text: string, index: number): number {
  let codePoints = 0;
  for (let i = 0; i < index && i < text.length; codePoints++) {
    i += (text.codePointAt(i) ?? 0) > 0xffff ? 2 : 1;
  }
  return codePoints;
}
