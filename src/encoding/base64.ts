import type { Bytes } from './bytes';

// Strict RFC 4648 codecs. Decoders accept only the canonical encoding (re-encoding must give the input
// back), so a flipped padding bit or stray whitespace can never map two texts to the same bytes.

const URL_ALPHABET = /^[A-Za-z0-9_-]*$/;
const STD_ALPHABET = /^[A-Za-z0-9+/]*={0,2}$/;

// Bytes to a binary string in slices small enough for one `fromCharCode` call (its arguments go on the
// stack; applied, not spread, which is four times slower), then the runtime's own `btoa`: the fastest
// way for large inputs such as the prompt renderer's 1 MB regions.
const SLICE = 0x8000;

// The runtime's own encoder where it has one (Uint8Array.prototype.toBase64, TC39's "Uint8Array to/from
// base64", in workerd and current browsers; not in Node 20): 125 vs 2,590 ns for a 700-byte JWS
// payload in workerd. Elsewhere the portable code below, which the tests hold to the same output.
interface ToBase64 {
  toBase64(options?: { alphabet?: 'base64' | 'base64url'; omitPadding?: boolean }): string;
}
const nativeBase64 = typeof (Uint8Array.prototype as Partial<ToBase64>).toBase64 === 'function';
const URL_OPTIONS = { alphabet: 'base64url', omitPadding: true } as const;

/** Standard padded base64, one line, no whitespace. */
export function encodeBase64(bytes: Uint8Array): string {
  return nativeBase64 ? (bytes as Uint8Array & ToBase64).toBase64() : portableBase64(bytes);
}

function portableBase64(bytes: Uint8Array): string {
  if (bytes.length <= SLICE) return btoa(Reflect.apply(String.fromCharCode, null, bytes));
  let binary = '';
  for (let i = 0; i < bytes.length; i += SLICE) {
    binary += Reflect.apply(String.fromCharCode, null, bytes.subarray(i, i + SLICE));
  }
  return btoa(binary);
}

/** The bytes of base64 a schema has already checked (padded standard alphabet), canonical or not. */
export function base64Bytes(text: string): Bytes {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function decodeBase64(text: string): Bytes | null {
  if (!STD_ALPHABET.test(text) || text.length % 4 !== 0) return null;
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return encodeBase64(bytes) === text ? bytes : null;
}

// Small inputs (hashes, commitments, salts, signatures: a receipt encodes about twenty of them per
// request) go through a table of every 12-bit group's two characters, which skips the binary string,
// `btoa` and the three replacements: in workerd 133 vs 333 ns for 32 bytes, 267 vs 500 ns for 64.
// Past a few hundred bytes `btoa` catches up, so larger inputs keep it.
const URL_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const URL_PAIRS: string[] = [];
for (let i = 0; i < 4096; i++) URL_PAIRS.push(`${URL_CHARS[i >> 6]}${URL_CHARS[i & 63]}`);
const SMALL = 128;

function encodeBase64UrlSmall(bytes: Uint8Array): string {
  const whole = bytes.length - (bytes.length % 3);
  let text = '';
  let i = 0;
  for (; i < whole; i += 3) {
    const group = ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8) | (bytes[i + 2] as number);
    text += (URL_PAIRS[group >> 12] as string) + (URL_PAIRS[group & 4095] as string);
  }
  if (bytes.length - whole === 1) {
    text += URL_PAIRS[(bytes[i] as number) << 4] as string;
  } else if (bytes.length - whole === 2) {
    const group = ((bytes[i] as number) << 8) | (bytes[i + 1] as number);
    text += (URL_PAIRS[group >> 4] as string) + (URL_CHARS[(group & 15) << 2] as string);
  }
  return text;
}

/** Unpadded base64url (RFC 4648 section 5). */
export function encodeBase64Url(bytes: Uint8Array): string {
  return nativeBase64 ? (bytes as Uint8Array & ToBase64).toBase64(URL_OPTIONS) : portableBase64Url(bytes);
}

function portableBase64Url(bytes: Uint8Array): string {
  if (bytes.length <= SMALL) return encodeBase64UrlSmall(bytes);
  return portableBase64(bytes).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
}

/** The encoders without the runtime's own, for the tests that hold both to the same output. */
export const portableEncoders = { encodeBase64: portableBase64, encodeBase64Url: portableBase64Url };

export function decodeBase64Url(text: string): Bytes | null {
  if (!URL_ALPHABET.test(text) || text.length % 4 === 1) return null;
  const std = text.replace(/-/g, '+').replace(/_/g, '/');
  const bytes = decodeBase64(std + '='.repeat((4 - (std.length % 4)) % 4));
  return bytes !== null && encodeBase64Url(bytes) === text ? bytes : null;
}
