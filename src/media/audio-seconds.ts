import type { Priced } from './pricing-basis';
import { byteAt } from './read-bytes';
import { readWavLayout, type WavFormat } from './wav-layout';

// How long an audio clip may play, from its bytes, never under what a provider's decoder could make of
// them. A decoder goes by the bytes, not the declared MIME type: ffmpeg (which providers use) probes
// the content, and in a WAV follows the format tag. So a WAV's byte rate is believed only for
// uncompressed PCM or float with a header that agrees with itself, and even then the data is all the
// bytes from the first data chunk to the end of the file; anything else is bounded by its bytes at the
// lowest rate a codec it could hold has.

export interface AudioLength extends Priced {
  seconds: number;
  /** Chunks or headers looked at: the walk is linear in the file's size. */
  steps: number;
}

/** 8 kbit/s, the lowest bit rate of MPEG audio (MPEG-2.5 layer III; MPEG-2 layers I–III go no lower). */
export const lowestMpegBytesPerSecond = 1000;

/**
 * 200 bit/s, below every codec ffmpeg decodes from a WAV format tag (libavformat/riff.c
 * ff_codec_wav_tags) at its lowest: G.723.1 (tag 0x0042) has 1-byte "untransmitted" frames of 30 ms
 * (libavcodec/g723_1.h frame_size {24, 20, 4, 1}), 267 bit/s; AMR-NB (0x0057) 1-byte NO_DATA frames of
 * 20 ms (RFC 4867), 400 bit/s; Speex (0xA109) 5-bit "no transmission" frames of 20 ms, 250 bit/s. The
 * nominal rates (MP3 8 kbit/s, G.723.1 5.3 kbit/s, AMR 4.75 kbit/s) are higher than these silence frames.
 */
export const lowestCodecBytesPerSecond = 25;

const pcmTag = 1;
const floatTag = 3;
const maxSampleRate = 384_000;
const maxChannels = 8;

/**
 * The byte rate of an uncompressed format whose header agrees with itself: PCM of 8–32 bits or float
 * of 32 or 64, block align = channels × bytes a sample, byte rate = sample rate × block align, and
 * plausible sizes. Undefined for anything else.
 */
function uncompressedByteRate(format: WavFormat): number | undefined {
  const { tag, channels, sampleRate, byteRate, blockAlign, bitsPerSample } = format;
  const bits = tag === pcmTag ? [8, 16, 24, 32] : tag === floatTag ? [32, 64] : [];
  if (!bits.includes(bitsPerSample)) return undefined;
  const plausible =
    channels >= 1 && channels <= maxChannels && sampleRate >= 1 && sampleRate <= maxSampleRate;
  const agrees = blockAlign === channels * (bitsPerSample / 8) && byteRate === sampleRate * blockAlign;
  return plausible && agrees ? byteRate : undefined;
}

/**
 * The lowest byte rate a decoder could play these bytes at: the codec floor, or lower when a header
 * declares a sample rate so low that a codec coding each sample in 1 bit (DFPWM, which ffmpeg reads
 * from WAV) would be slower still.
 */
function lowestBytesPerSecond(formats: WavFormat[]): number {
  let rate = lowestCodecBytesPerSecond;
  for (const { sampleRate } of formats) if (sampleRate > 0) rate = Math.min(rate, sampleRate / 8);
  return rate;
}

function hex(tag: number): string {
  return `0x${tag.toString(16).padStart(4, '0')}`;
}

function wavLength(bytes: Uint8Array, formats: WavFormat[], dataStart: number | undefined, dataSize: number) {
  const only = formats.length === 1 ? formats[0] : undefined;
  const byteRate = only === undefined ? undefined : uncompressedByteRate(only);
  if (only !== undefined && byteRate !== undefined && dataStart !== undefined) {
    const data = bytes.length - dataStart;
    const toTheEnd = dataSize === data || dataSize === data - 1;
    const seconds = data / byteRate;
    const why = toTheEnd
      ? `${seconds} s: ${data} bytes of PCM at ${byteRate} B/s`
      : `${seconds} s: every byte from the first data chunk to the end (${data}, not the declared ${dataSize}) at ${byteRate} B/s`;
    return { seconds, basis: toTheEnd ? ('read' as const) : ('bounded' as const), why };
  }
  const reason =
    only === undefined
      ? `${formats.length} fmt chunks before the data`
      : byteRate === undefined
        ? `format ${hex(only.tag)} is not PCM or its header disagrees with itself`
        : 'no data chunk';
  const rate = lowestBytesPerSecond(formats);
  const seconds = bytes.length / rate;
  return {
    seconds,
    basis: 'bounded' as const,
    why: `${seconds} s: ${reason}, so ${bytes.length} bytes at ${rate} B/s`,
  };
}

/** The length of the ID3v2 tags at the start of an MP3 (10 bytes of header, a syncsafe size, maybe a footer). */
function id3Length(bytes: Uint8Array, at: number): number {
  if (String.fromCharCode(byteAt(bytes, at), byteAt(bytes, at + 1), byteAt(bytes, at + 2)) !== 'ID3')
    return 0;
  let size = 0;
  for (let i = 6; i < 10; i++) size = size * 128 + (byteAt(bytes, at + i) & 0x7f);
  return 10 + size + (byteAt(bytes, at + 5) & 0x10 ? 10 : 0);
}

/**
 * Whether the bytes open (after any ID3v2 tags) on an MPEG audio frame header with a bit rate from the
 * table: a sync word, a layer (ADTS AAC, which shares the sync word, has layer 0), a bit rate that is
 * neither free nor invalid, a valid sample rate.
 */
function opensOnMpegFrame(bytes: Uint8Array): { steps: number; mpeg: boolean } {
  let at = 0;
  let steps = 0;
  for (let tag = id3Length(bytes, at); tag > 0 && steps < bytes.length; tag = id3Length(bytes, at)) {
    at += tag;
    steps++;
  }
  const [b1, b2] = [byteAt(bytes, at + 1), byteAt(bytes, at + 2)];
  const sync = byteAt(bytes, at) === 0xff && (b1 & 0xe0) === 0xe0 && (b1 & 0x18) !== 0x08;
  const header = (b1 & 0x06) !== 0 && b2 >> 4 !== 0 && b2 >> 4 !== 15 && (b2 & 0x0c) !== 0x0c;
  return { steps: steps + 1, mpeg: sync && header };
}

export function audioSeconds(bytes: Uint8Array, mimeType: string): AudioLength {
  const wav = readWavLayout(bytes);
  if (wav !== undefined)
    return { ...wavLength(bytes, wav.formats, wav.dataStart, wav.dataSize), steps: wav.steps };
  const { steps, mpeg } = opensOnMpegFrame(bytes);
  const rate = mpeg ? lowestMpegBytesPerSecond : lowestCodecBytesPerSecond;
  const seconds = bytes.length / rate;
  const what = mpeg ? 'MPEG audio' : `neither WAV nor MPEG audio (declared ${mimeType})`;
  return {
    seconds,
    basis: 'bounded',
    why: `${seconds} s: ${what}, ${bytes.length} bytes at ${rate} B/s`,
    steps,
  };
}
