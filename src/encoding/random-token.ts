import { encodeBase64Url } from './base64';
import { bytesToHex } from './hex';

/** `bytes` random bytes from the platform CSPRNG, as lowercase hex. */
export function randomHex(bytes: number): string {
  return bytesToHex(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** `bytes` random bytes as unpadded base64url. */
export function randomBase64url(bytes: number): string {
  return encodeBase64Url(crypto.getRandomValues(new Uint8Array(bytes)));
}
