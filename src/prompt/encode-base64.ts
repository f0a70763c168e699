const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
// Every 12-bit value as its two base64 characters: three bytes become two lookups.
const pairs: string[] = [];
for (let i = 0; i < 4096; i++) pairs.push(alphabet.charAt(i >> 6) + alphabet.charAt(i & 63));

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Standard padded base64 of the text's UTF-8 bytes (one line, no whitespace). */
export function encodeBase64(text: string): string {
  const bytes = encoder.encode(text);
  const whole = bytes.length - (bytes.length % 3);
  const chunks: string[] = [];
  let chunk = '';
  for (let i = 0; i < whole; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    chunk += pairs[n >> 12]! + pairs[n & 4095]!;
    if (chunk.length >= 8192) {
      chunks.push(chunk);
      chunk = '';
    }
  }
  const rest = bytes.length - whole;
  if (rest === 1) {
    const n = bytes[whole]! << 16;
    chunk += `${pairs[n >> 12]!}==`;
  } else if (rest === 2) {
    const n = (bytes[whole]! << 16) | (bytes[whole + 1]! << 8);
    chunk += `${pairs[n >> 12]!}${alphabet.charAt((n >> 6) & 63)}=`;
  }
  chunks.push(chunk);
  return chunks.join('');
}

/** The text whose UTF-8 bytes the base64 encodes; throws on bad base64 or bad UTF-8. */
export function decodeBase64(base64: string): string {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64) || base64.length % 4 !== 0) throw new Error('not base64');
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return decoder.decode(bytes);
}
