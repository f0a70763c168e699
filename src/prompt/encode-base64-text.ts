import { utf8 } from '../encoding/utf8';

// Base64 of a region's UTF-8 bytes, written straight into a byte buffer and decoded once: `btoa` needs
// a binary string first, built from the bytes in slices, which costs more than the encoding itself
// (about 3x for 1 MB of prose, Node 20). Same output as `encodeBase64(utf8(text))`: RFC 4648
// standard alphabet, padded, one line.

const alphabet = new TextEncoder().encode('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/');
const ascii = new TextDecoder();
// Reused across calls, up to `keptBytes` (512 KiB).
const keptBytes = 1 << 19;
let buffer = new Uint8Array(0);

/** Standard padded base64 of the UTF-8 encoding of `text` (well formed). */
export function encodeBase64Text(text: string): string {
  const bytes = utf8(text);
  const length = bytes.length;
  const size = Math.ceil(length / 3) * 4;
  const units = buffer.length >= size ? buffer : new Uint8Array(size);
  if (units.length <= keptBytes) buffer = units;
  const whole = length - (length % 3);
  let out = 0;
  for (let i = 0; i < whole; i += 3) {
    const triple = ((bytes[i] ?? 0) << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    units[out++] = alphabet[triple >>> 18] ?? 0;
    units[out++] = alphabet[(triple >>> 12) & 63] ?? 0;
    units[out++] = alphabet[(triple >>> 6) & 63] ?? 0;
    units[out++] = alphabet[triple & 63] ?? 0;
  }
  if (whole < length) {
    const two = whole + 1 < length;
    const triple = ((bytes[whole] ?? 0) << 16) | (two ? (bytes[whole + 1] ?? 0) << 8 : 0);
    units[out++] = alphabet[triple >>> 18] ?? 0;
    units[out++] = alphabet[(triple >>> 12) & 63] ?? 0;
    units[out++] = two ? (alphabet[(triple >>> 6) & 63] ?? 0) : 0x3d;
    units[out++] = 0x3d;
  }
  return ascii.decode(units.subarray(0, size));
}
