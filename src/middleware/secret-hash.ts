import { bytesToHex } from '../encoding/hex';
import { sha256Parts } from '../encoding/hmac-sha256';
import { utf8 } from '../encoding/utf8';

const encoder = new TextEncoder();

/**
 * Lowercase hex SHA-256 of a secret, the only form in which API keys are stored. Synchronous, on the
 * module's own SHA-256: every request hashes its key, and WebCrypto's digest is a promise to await.
 */
export function sha256Hex(text: string): string {
  return bytesToHex(sha256Parts([utf8(text)]));
}

/** Constant-time equality of two secrets (compared as SHA-256 digests, so lengths never leak). */
export async function secretsEqual(a: string, b: string): Promise<boolean> {
  const [da, db] = await Promise.all([
    crypto.subtle.digest('SHA-256', encoder.encode(a)),
    crypto.subtle.digest('SHA-256', encoder.encode(b)),
  ]);
  return crypto.subtle.timingSafeEqual(da, db);
}
