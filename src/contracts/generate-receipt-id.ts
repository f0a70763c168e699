import { bytesToHex } from '../encoding/hex';

/**
 * A receipt id Valve draws for a request without one: an RFC 9562 version 8 UUID laid out as version
 * 7 is, the Unix time in milliseconds in its first 48 bits and 74 random bits after. Callers cannot
 * send version 8 ids (see `callerReceiptIdSchema`), so an id Valve generated can never be claimed by a
 * caller, even before its receipt row, written behind the answer, is stored. Ids drawn later sort
 * later, so each row lands at the end of D1's (tenant, id) index: with random ids every row dirtied a
 * page of its own, which made a row cost three to four times as much to write
 * (bench/tools/d1-costs.js). The time it shows is the receipt's own `iat`, which the receipt carries
 * anyway.
 */
export function generateReceiptId(nowMs: number = Date.now()): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let ms = Math.max(0, Math.floor(nowMs));
  for (let i = 5; i >= 0; i--) {
    bytes[i] = ms % 256;
    ms = Math.floor(ms / 256);
  }
  bytes[6] = 0x80 | ((bytes[6] ?? 0) & 0x0f);
  bytes[8] = 0x80 | ((bytes[8] ?? 0) & 0x3f);
  const hex = bytesToHex(bytes);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
