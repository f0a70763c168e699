/**
 * A conservative token count for text: it may over-estimate, never under-estimate, because cost caps
 * rest on it. A byte-level BPE tokenizer never emits more tokens than the text has UTF-8 bytes; common
 * tokenizers average 3–4 characters a token on English, so this takes bytes / 2 as a margin, plus a
 * small per-message overhead.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(utf8Length(text) / 2) + 4;
}

function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}
