import type { Bytes } from './bytes';

// Strict RFC 4648 codecs. Decoders accept only the canonical encoding (re-encoding must give the input
// back), so a flipped padding bit or stray whitespace can never map two texts to the same bytes.

const URL_ALPHABET = /^[A-Za-z0-9_-]*$/;
const STD_ALPHABET = /^[A-Za-z0-9+/]*={0,2}$/;

export function encodeBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
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
