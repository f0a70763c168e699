import type { Bytes } from './bytes';

// The two WebCrypto primitives under the commitments; the tests run the RFC 5869, RFC 4231 and
// Wycheproof vectors through these exact functions.

export async function hkdfSha256(ikm: Bytes, salt: Bytes, info: Bytes, length: number): Promise<Bytes> {
  const key = await crypto.subtle.importKey('raw', ikm, 'HKDF', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits({ name: 'HKDF', hash: 'SHA-256', salt, info }, key, length * 8);
  return new Uint8Array(bits);
}

export async function hmacSha256(key: Bytes, message: Bytes): Promise<Bytes> {
  const hmacKey = await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  return new Uint8Array(await crypto.subtle.sign('HMAC', hmacKey, message));
}
