/**
 * The UTF-16 index (a JavaScript string index) in `text` of a UTF-8 byte offset into its encoding:
 * where the code point that starts at or after that byte starts. An offset past the end gives the
 * text's length. A lone surrogate counts as the 3 bytes of U+FFFD that encoding makes of it.
 */
export function utf16IndexOfUtf8(text: string, byteOffset: number): number {
  let bytes = 0;
  let index = 0;
  while (index < text.length && bytes < byteOffset) {
    const code = text.codePointAt(index) ?? 0;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    index += code > 0xffff ? 2 : 1;
  }
  return index;
}
