import { bytesToHex } from '../encoding/hex';

const encoder = new TextEncoder();

/** Lowercase hex SHA-256 of a secret, the only form in which API keys are stored. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', encoder.encode(text));
  return bytesToHex(new Uint8Array(digest));
}

/** Constant-time equality of two secrets (compared as SHA-256 digests, so lengths never leak). */
export async function secretsEqual(a: string, b: string): Promise<boolean> {
  const [da, db] = await Promise.all([
    crypto.subtle.digest('SHA-256', encoder.encode(a)),
    crypto.subtle.digest('SHA-256', encoder.encode(b)),
  ]);
  return crypto.subtle.timingSafeEqual(da, db);
}
