import type { Bytes } from './bytes';

// Strict RFC 4648 codecs. Decoders accept only the canonical encoding (re-encoding must give the input
// back), so a flipped padding bit or stray whitespace can never map two texts to the same bytes.

const URL_ALPHABET = /^[A-Za-z0-9_-]*$/;
const STD_ALPHABET = /^[A-Za-z0-9+/]*={0,2}$/;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
// Every 12-bit value as its two base64 characters: three bytes become two lookups. Faster than
// String.fromCharCode + btoa on the long untrusted context regions the prompt renderer encodes.
const PAIRS: string[] = [];
for (let i = 0; i < 4096; i++) PAIRS.push(ALPHABET.charAt(i >> 6) + ALPHABET.charAt(i & 63));

/** Standard padded base64, one line, no whitespace. */
export function encodeBase64(bytes: Uint8Array): string {
  const whole = bytes.length - (bytes.length % 3);
  const chunks: string[] = [];
  let chunk = '';
  for (let i = 0; i < whole; i += 3) {
    const n = ((bytes[i] ?? 0) << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    chunk += `${PAIRS[n >> 12]}${PAIRS[n & 4095]}`;
    if (chunk.length >= 8192) {
      chunks.push(chunk);
      chunk = '';
    }
  }
  const rest = bytes.length - whole;
  if (rest === 1) {
    const n = (bytes[whole] ?? 0) << 16;
    chunk += `${PAIRS[n >> 12]}==`;
  } else if (rest === 2) {
    const n = ((bytes[whole] ?? 0) << 16) | ((bytes[whole + 1] ?? 0) << 8);
    chunk += `${PAIRS[n >> 12]}${ALPHABET.charAt((n >> 6) & 63)}=`;
  }
  chunks.push(chunk);
  return chunks.join('');
}

export function decodeBase64(text: string): Bytes | null {
  if (!STD_ALPHABET.test(text) || text.length % 4 !== 0) return null;
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return encodeBase64(bytes) === text ? bytes : null;
}

export function encodeBase64Url(bytes: Uint8Array): string {
  return encodeBase64(bytes).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
}

export function decodeBase64Url(text: string): Bytes | null {
  if (!URL_ALPHABET.test(text) || text.length % 4 === 1) return null;
  const std = text.replace(/-/g, '+').replace(/_/g, '/');
  const bytes = decodeBase64(std + '='.repeat((4 - (std.length % 4)) % 4));
  return bytes !== null && encodeBase64Url(bytes) === text ? bytes : null;
}
