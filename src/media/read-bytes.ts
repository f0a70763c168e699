// Numbers read from a file's bytes at an offset. A read past the end gives 0, so a truncated file is read
// as far as it goes; each walker checks its own bounds before it trusts a value.

export function byteAt(bytes: Uint8Array, at: number): number {
  return bytes[at] ?? 0;
}

export function uint16le(bytes: Uint8Array, at: number): number {
  return byteAt(bytes, at) | (byteAt(bytes, at + 1) << 8);
}

export function uint24le(bytes: Uint8Array, at: number): number {
  return uint16le(bytes, at) | (byteAt(bytes, at + 2) << 16);
}

export function uint32le(bytes: Uint8Array, at: number): number {
  return uint24le(bytes, at) + byteAt(bytes, at + 3) * 2 ** 24;
}

export function uint16be(bytes: Uint8Array, at: number): number {
  return (byteAt(bytes, at) << 8) | byteAt(bytes, at + 1);
}

export function uint32be(bytes: Uint8Array, at: number): number {
  return byteAt(bytes, at) * 2 ** 24 + ((byteAt(bytes, at + 1) << 16) | uint16be(bytes, at + 2));
}

export function ascii(bytes: Uint8Array, at: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(at, at + length));
}
