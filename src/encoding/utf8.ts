import type { Bytes } from './bytes';

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function utf8(text: string): Bytes {
  return utf8Encoder.encode(text) as Bytes;
}

/** Decodes UTF-8 strictly: malformed input gives null instead of U+FFFD, and a BOM is kept, not eaten. */
export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return utf8Decoder.decode(bytes);
  } catch {
    return null;
  }
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether the text has a UTF-16 surrogate without its pair: such text has no UTF-8 encoding. */
export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}

const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

/** The text with every lone surrogate replaced by U+FFFD, as a UTF-8 encoder would. */
export function replaceLoneSurrogates(text: string): string {
  return text.replace(LONE_SURROGATES, '\uFFFD');
}
