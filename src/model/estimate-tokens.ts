/**
 * A conservative token count for text: it may over-estimate, never under-estimate, because cost caps
 * and context-window checks rest on it. One pass, no vocabulary: the text is cut the way byte-level BPE
 * tokenizers pre-tokenize it (letter runs, digits, punctuation, whitespace), and
 * each piece is charged at least what a real tokenizer spends on it:
 *
 * - a run of ASCII letters, split at camelCase humps: a quarter of its length when it reads like a word,
 *   its whole length when under a quarter of it is vowels (ids, hashes, base64: random letters cost
 *   up to one token each);
 * - a digit: one token (GPT tokenizers group up to three digits, but SentencePiece ones such as
 *   Gemini's split every digit);
 * - ASCII punctuation: one each; whitespace: free when a single space joins the next word, else one
 *   per four characters;
 * - any other character: its UTF-8 length in bytes, less one for two- and three-byte characters that
 *   are letters (Cyrillic, Greek, CJK…). That covers real prose in those scripts with a wide margin,
 *   but not uniformly random rare letters (a byte-level tokenizer may spend up to one token a byte on
 *   them); the test records that limit.
 *
 * test/model/estimate-tokens.test.ts measures it against cl100k and o200k on varied text.
 */
export function estimateTokens(text: string): number {
  // One pass with the pending runs kept in locals (no closures), so V8 keeps the loop tight.
  let tokens = 0;
  let letters = 0;
  let vowels = 0;
  let digits = 0;
  let spaces = 0;
  let previousLower = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const isUpper = code >= 65 && code <= 90;
    const isLower = code >= 97 && code <= 122;
    if (isUpper || isLower) {
      if (digits > 0) {
        tokens += digits;
        digits = 0;
      }
      if (spaces > 0) {
        tokens += spaces === 1 ? 0 : Math.ceil(spaces / 4);
        spaces = 0;
      }
      if (isUpper && previousLower && letters > 0) {
        tokens += Math.ceil(vowels * 4 >= letters ? letters / 4 : letters);
        letters = 0;
        vowels = 0;
      }
      letters++;
      if (vowelMask & (1 << ((code | 32) - 97))) vowels++;
      previousLower = isLower;
      continue;
    }
    previousLower = false;
    if (letters > 0) {
      tokens += Math.ceil(vowels * 4 >= letters ? letters / 4 : letters);
      letters = 0;
      vowels = 0;
    }
    if (code >= 48 && code <= 57) {
      if (spaces > 0) {
        tokens += Math.ceil(spaces / 4);
        spaces = 0;
      }
      digits++;
      continue;
    }
    if (digits > 0) {
      tokens += digits;
      digits = 0;
    }
    if (code === 32 || code === 9 || code === 10 || code === 13) {
      spaces++;
      continue;
    }
    if (spaces > 0) {
      tokens += spaces === 1 && code < 0x80 ? 0 : Math.ceil(spaces / 4);
      spaces = 0;
    }
    if (code < 0x80) tokens += 1;
    else if (code < 0x800) tokens += isLetterish(code) ? 1 : 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      tokens += 4;
      i++;
    } else tokens += isLetterish(code) ? 2 : 3;
  }
  if (letters > 0) tokens += Math.ceil(vowels * 4 >= letters ? letters / 4 : letters);
  tokens += digits;
  if (spaces > 0) tokens += Math.ceil(spaces / 4);
  return tokens;
}

// a, e, i, o, u, y as bits of (letter - 'a').
const vowelMask = (1 << 0) | (1 << 4) | (1 << 8) | (1 << 14) | (1 << 20) | (1 << 24);

/** Scripts whose letters byte-level tokenizers learned as units: Latin-1 to Arabic, and CJK, kana, Hangul. */
function isLetterish(code: number): boolean {
  return (
    (code >= 0xc0 && code <= 0x6ff) ||
    (code >= 0x3040 && code <= 0x30ff) ||
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0xac00 && code <= 0xd7a3)
  );
}
