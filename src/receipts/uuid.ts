import type { Bytes } from '../encoding/bytes';

// Receipt ids are RFC 4122 UUIDs in lowercase canonical form, so the text and its 16 bytes
// (rid16, which the commitments bind) correspond one to one.
const CANONICAL_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function isCanonicalUuid(text: string): boolean {
  return CANONICAL_UUID.test(text);
}

// The value of a lowercase hex digit's character code (the regex has already admitted only those).
function hexValue(code: number): number {
  return code <= 0x39 ? code - 0x30 : code - 0x57;
}

/** The 16 bytes of a lowercase canonical UUID; anything else is a caller's bug and throws. */
export function uuidToBytes(uuid: string): Bytes {
  if (!isCanonicalUuid(uuid)) throw new TypeError('receipt id is not a lowercase canonical UUID');
  const bytes = new Uint8Array(16);
  for (let i = 0, at = 0; i < 16; i++, at += 2) {
    if (uuid.charCodeAt(at) === 0x2d) at++;
    bytes[i] = (hexValue(uuid.charCodeAt(at)) << 4) | hexValue(uuid.charCodeAt(at + 1));
  }
  return bytes;
}
