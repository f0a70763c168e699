// Byte arrays as WebCrypto takes them (no Buffer: the same code runs in the Worker and the CLI).

/** Bytes backed by a plain ArrayBuffer, which is what WebCrypto's BufferSource accepts. */
export type Bytes = Uint8Array<ArrayBuffer>;

export function concatBytes(...parts: Uint8Array[]): Bytes {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

/** Constant-time in the contents; the lengths are public. */
export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}
