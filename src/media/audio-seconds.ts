// How long an audio clip plays, read from its bytes: exact for WAV (its header gives the byte rate),
// and for MP3 bounded by the lowest bit rate MPEG audio has (8 kbit/s), so never under the truth.

function ascii(bytes: Uint8Array, at: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(at, at + length));
}

function uint32(bytes: Uint8Array, at: number): number {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(at, true);
}

/**
 * The byte rate of a `fmt ` chunk, if it agrees with its sample rate and block size and both are
 * plausible (at most 384 kHz, 32 bytes a frame): a header that lies cannot shorten the estimate.
 */
function consistentByteRate(bytes: Uint8Array, at: number): number | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const sampleRate = view.getUint32(at + 12, true);
  const byteRate = view.getUint32(at + 16, true);
  const blockAlign = view.getUint16(at + 20, true);
  const plausible = sampleRate > 0 && sampleRate <= 384_000 && blockAlign > 0 && blockAlign <= 32;
  return plausible && byteRate === sampleRate * blockAlign ? byteRate : undefined;
}

/** A WAV file's length in seconds from its `fmt ` byte rate and `data` size; undefined if not WAV. */
export function wavSeconds(bytes: Uint8Array): number | undefined {
  if (bytes.length < 12 || ascii(bytes, 0, 4) !== 'RIFF' || ascii(bytes, 8, 4) !== 'WAVE') return undefined;
  let byteRate: number | undefined;
  for (let at = 12; at + 8 <= bytes.length; ) {
    const id = ascii(bytes, at, 4);
    const size = uint32(bytes, at + 4);
    if (id === 'fmt ' && at + 22 <= bytes.length) byteRate = consistentByteRate(bytes, at);
    if (id === 'data') {
      const data = Math.min(size, bytes.length - at - 8);
      return byteRate ? data / byteRate : undefined;
    }
    at += 8 + size + (size % 2);
  }
  return undefined;
}

/** The lowest bit rate of MPEG audio (MPEG-2.5 layer III), in bytes a second. */
const lowestMpegBytesPerSecond = 1000;

export function audioSeconds(bytes: Uint8Array, mimeType: string): number {
  const wav = mimeType === 'audio/wav' ? wavSeconds(bytes) : undefined;
  return wav ?? bytes.length / lowestMpegBytesPerSecond;
}
