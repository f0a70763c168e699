import { bytesToHex } from '../encoding/hex';

/**
 * A receipt id Valve draws for a request without one: an RFC 9562 version 8 UUID of 122 random bits.
 * Callers cannot send version 8 ids (see `callerReceiptIdSchema`), so an id Valve generated can never
 * be claimed by a caller, even before its receipt row, written behind the answer, is stored.
 */
export function generateReceiptId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = 0x80 | ((bytes[6] ?? 0) & 0x0f);
  bytes[8] = 0x80 | ((bytes[8] ?? 0) & 0x3f);
  const hex = bytesToHex(bytes);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
