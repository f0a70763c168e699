import { bench, describe } from 'vitest';
import { audioSeconds } from '../../src/media/audio-seconds';
import { countPdfPages } from '../../src/media/count-pdf-pages';
import { imageDimensions } from '../../src/media/image-dimensions';
import { countBombPdf, escapedNamesPdf } from '../../test/helpers/hostile-media';
import { pdfOf, wavOf } from '../../test/helpers/media-samples';

// Measuring a media part before admission: each measurer beside SHA-256 of the same bytes (which Valve
// computes for every part's receipt commitment anyway), so each is read as a ratio to a hash. The
// inputs are a plain PDF carrying 1 MiB of image data, a 1,000-page PDF whose names are #-escaped, the
// 2 KB PDF that inflates to 768 KiB of `/Count 1 `, a minute of 16 kHz PCM and a 1 MiB GIF of 1,000
// frames.

function withImageStream(pdf: Uint8Array, bytes: number): Uint8Array {
  const data = new Uint8Array(bytes);
  for (let i = 0; i < bytes; i++) data[i] = (i * 2654435761) >>> 24;
  const head = new TextEncoder().encode(`99 0 obj\n<< /Length ${bytes} /Filter /DCTDecode >>\nstream\n`);
  const tail = new TextEncoder().encode('\nendstream\nendobj\n');
  const out = new Uint8Array(pdf.length + head.length + bytes + tail.length);
  out.set(pdf);
  out.set(head, pdf.length);
  out.set(data, pdf.length + head.length);
  out.set(tail, pdf.length + head.length + bytes);
  return out;
}

function manyFrameGif(frames: number, frameBytes: number): Uint8Array {
  const parts: number[] = [0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 100, 0, 100, 0, 0, 0, 0];
  for (let f = 0; f < frames; f++) {
    parts.push(0x2c, 0, 0, 0, 0, 100, 0, 100, 0, 0, 2);
    for (let left = frameBytes; left > 0; left -= 255) {
      const size = Math.min(255, left);
      parts.push(size, ...new Array<number>(size).fill(0));
    }
    parts.push(0);
  }
  parts.push(0x3b);
  return Uint8Array.from(parts);
}

const plainPdf: Uint8Array = withImageStream(pdfOf(3), 1024 * 1024);
const escaped = escapedNamesPdf(1000).bytes;
const bomb = await countBombPdf();
const pcm = wavOf(60, { rate: 16_000 });
const gif = manyFrameGif(1000, 1024);

/** Short runs: the slowest case takes ~35 ms a call, and the quick bench gives all micro-benchmarks 40 s. */
const brief = { time: 150, warmupTime: 30 };

const sha256 = (bytes: Uint8Array) => crypto.subtle.digest('SHA-256', bytes.slice());

describe('measure media', () => {
  bench(
    'baseline: SHA-256 of a copy of the 1 MiB PDF',
    async () => {
      await sha256(plainPdf);
    },
    brief,
  );
  bench(
    'PDF pages: 1 MiB of image data, 3 pages',
    async () => {
      await countPdfPages(plainPdf);
    },
    brief,
  );
  bench(
    'PDF pages: 1,000 #-escaped pages (64 KB)',
    async () => {
      await countPdfPages(escaped);
    },
    brief,
  );
  bench(
    'PDF pages: the count bomb (2 KB, 768 KiB inflated)',
    async () => {
      await countPdfPages(bomb);
    },
    brief,
  );
  bench(
    'WAV seconds: a minute of 16 kHz PCM (1.9 MB)',
    () => {
      audioSeconds(pcm, 'audio/wav');
    },
    brief,
  );
  bench(
    'GIF size: 1,000 frames (1 MiB)',
    () => {
      imageDimensions(gif, 'image/gif');
    },
    brief,
  );
});
