import { describe, expect, it } from 'vitest';
import { concatBytes } from '../../src/encoding/bytes';
import {
  audioSeconds,
  lowestCodecBytesPerSecond,
  lowestMpegBytesPerSecond,
} from '../../src/media/audio-seconds';
import { riffChunk, wavOf } from '../helpers/media-samples';

// WAV headers that lie, and the bound that holds anyway: a decoder (ffmpeg, which providers use) reads
// a data chunk of size 0 to the end of the file, may read on into a second data chunk, and decodes by
// the format tag, so only a self-consistent PCM header's byte rate is believed, over all the bytes
// from the first data chunk on; anything else is bounded by its bytes at the lowest codec rate.

/** RIFF, WAVE and the fmt chunk of `wavOf(0, shape)`, with no data chunk yet. */
const headerOf = (...shape: Parameters<typeof wavOf>) => wavOf(...shape).subarray(0, 36);
const silence = (seconds: number, bytesPerSecond = 16_000) => new Uint8Array(seconds * bytesPerSecond);

describe('a WAV’s length', () => {
  it('reads a clean 16-bit 16 kHz mono WAV of 3 s as exactly 3 s', () => {
    const wav = wavOf(3, { rate: 16_000 });
    expect(audioSeconds(wav, 'audio/wav')).toMatchObject({ seconds: 3, basis: 'read' });
  });

  it('reads a data chunk of size 0 to the end of the file: 10 s of samples after it are 10 s', () => {
    const wav = wavOf(10, { dataSize: 0 });
    expect(audioSeconds(wav, 'audio/wav')).toMatchObject({ seconds: 10, basis: 'bounded' });
  });

  it('reads past a 1-byte data chunk into a second data chunk of 10 s', () => {
    const wav = concatBytes(
      headerOf(0),
      riffChunk('data', new Uint8Array(1)),
      riffChunk('data', silence(10)),
    );
    const { seconds, basis } = audioSeconds(wav, 'audio/wav');
    expect(seconds).toBeGreaterThanOrEqual(10);
    expect(seconds).toBeLessThan(10.01);
    expect(basis).toBe('bounded');
  });

  it('bounds MPEG bytes under a WAV header claiming 12 MB/s by the lowest codec rate, not the byte rate', () => {
    // Tag 0x55 (MPEG layer III) with a header that agrees with itself: 384 kHz × 32-byte blocks.
    const wav = wavOf(0.01, { tag: 0x55, rate: 384_000, bits: 32, channels: 8 });
    expect(new DataView(wav.buffer).getUint32(28, true)).toBe(12_288_000);
    const { seconds, basis } = audioSeconds(wav, 'audio/wav');
    expect(seconds).toBeGreaterThanOrEqual(wav.length / lowestCodecBytesPerSecond);
    expect(basis).toBe('bounded');
  });

  it('bounds a PCM header whose byte rate disagrees with sample rate × block align by the lowest codec rate', () => {
    const wav = wavOf(10, { byteRate: 4_000_000_000 });
    expect(audioSeconds(wav, 'audio/wav')).toMatchObject({
      seconds: wav.length / lowestCodecBytesPerSecond,
      basis: 'bounded',
    });
  });

  it('bounds a PCM header whose block align disagrees with its channels and bits', () => {
    const wav = wavOf(1, { rate: 16_000 });
    new DataView(wav.buffer).setUint16(22, 2, true); // two channels, yet 2-byte blocks of 16 bits
    expect(audioSeconds(wav, 'audio/wav').basis).toBe('bounded');
  });

  it('goes below the codec floor when a compressed format declares a sample rate under 1 bit a sample', () => {
    // 100 Hz at 1 bit a sample (DFPWM) is 12.5 B/s, slower than the 25 B/s floor.
    const wav = wavOf(1, { tag: 0x0002, rate: 100 });
    expect(audioSeconds(wav, 'audio/wav').seconds).toBe(wav.length / 12.5);
  });

  it('does not trust a file with two fmt chunks, which readers may take either of', () => {
    const wav = concatBytes(headerOf(0), headerOf(0).subarray(12), riffChunk('data', silence(1)));
    expect(audioSeconds(wav, 'audio/wav')).toMatchObject({
      seconds: wav.length / lowestCodecBytesPerSecond,
      basis: 'bounded',
    });
  });

  it('goes by the bytes, not the label: a WAV declared audio/mpeg is read as a WAV', () => {
    expect(audioSeconds(wavOf(3), 'audio/mpeg')).toMatchObject({ seconds: 3, basis: 'read' });
  });
});

describe('MPEG audio and unknown bytes', () => {
  const mpegFrame = new Uint8Array([0xff, 0xfb, 0x90, 0x64]); // MPEG-1 layer III, 128 kbit/s, 44.1 kHz

  it('bounds MP3 by the lowest MPEG bit rate, 8 kbit/s, after any ID3 tag', () => {
    const mp3 = concatBytes(mpegFrame, new Uint8Array(4996));
    expect(audioSeconds(mp3, 'audio/mpeg')).toMatchObject({ seconds: 5, basis: 'bounded' });
    const id3 = new Uint8Array([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 6, 1, 2, 3, 4, 5, 6]);
    const tagged = concatBytes(id3, mpegFrame, new Uint8Array(980));
    expect(audioSeconds(tagged, 'audio/mpeg').seconds).toBe(tagged.length / lowestMpegBytesPerSecond);
  });

  it('bounds bytes that open on no MPEG frame (ADTS AAC shares its sync word) by the lowest codec rate', () => {
    const adts = concatBytes(new Uint8Array([0xff, 0xf1, 0x50, 0x80]), new Uint8Array(996));
    expect(audioSeconds(adts, 'audio/mpeg').seconds).toBe(1000 / lowestCodecBytesPerSecond);
    expect(audioSeconds(new Uint8Array(1000), 'audio/wav').seconds).toBe(1000 / lowestCodecBytesPerSecond);
  });
});

describe('the work of a WAV walk', () => {
  const withJunk = (chunks: number) => {
    const junk = Array.from({ length: chunks }, () => riffChunk('junk', new Uint8Array(2)));
    return concatBytes(headerOf(0), ...junk, riffChunk('data', silence(1)));
  };

  it('grows linearly with the chunks before the data, at most one step per 8 bytes', () => {
    const [small, large] = [withJunk(1000), withJunk(4000)];
    const [a, b] = [audioSeconds(small, 'audio/wav'), audioSeconds(large, 'audio/wav')];
    expect(b.steps / a.steps).toBeLessThanOrEqual(4.5);
    expect(b.steps).toBeGreaterThanOrEqual(4000);
    expect(b.steps).toBeLessThanOrEqual(large.length / 8);
  });
});
