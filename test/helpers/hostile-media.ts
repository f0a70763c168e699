import { concatBytes } from '../../src/encoding/bytes';
import { pdfOfObjects } from './media-samples';

// Media files crafted to look smaller than they are, each with what a real decoder reads from it: a
// PDF reader walks the page tree's /Kids from the catalog, whatever the names are spelled with or
// whether /Type is there (ISO 32000-1 §7.3.5, §7.7.3); a WAV reader (ffmpeg, which providers run)
// takes a data size of 0 as "to the end", reads every data chunk, and decodes by the format tag; a GIF
// decoder draws each frame at its own size, whatever the logical screen says.

export interface Hostile {
  name: string;
  type: 'image' | 'audio' | 'file';
  mimeType: string;
  bytes: Uint8Array;
  /** What a real decoder reads: pages, seconds, or [width, height]. */
  truth: number | [number, number];
}

const encoder = new TextEncoder();

/**
 * `pages` pages whose names are spelled with #xx escapes (`/P#61ge`, `/C#6funt`), and one plain page
 * outside the tree as a decoy: a reader renders the tree's pages.
 */
export function escapedNamesPdf(pages: number): Hostile {
  const kids = Array.from({ length: pages }, (_, i) => `${4 + i} 0 R`).join(' ');
  const bytes = pdfOfObjects([
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /P#61ges /Kids [${kids}] /C#6funt ${pages} >>`,
    '<< /Type /Page /MediaBox [0 0 612 792] >>',
    ...Array.from({ length: pages }, () => '<< /Type /P#61ge /Parent 2 0 R /MediaBox [0 0 612 792] >>'),
  ]);
  return {
    name: 'a PDF whose page names are #-escaped',
    type: 'file',
    mimeType: 'application/pdf',
    bytes,
    truth: pages,
  };
}

/**
 * A page tree with no /Type and no /Count anywhere: the catalog's /Pages and its /Kids are all a reader
 * needs. With `decoy`, one plain `/Type /Page` outside the tree.
 */
export function typelessTreePdf(pages: number, { decoy = false } = {}): Hostile {
  const kids = Array.from({ length: pages }, (_, i) => `${3 + i} 0 R`).join(' ');
  const bytes = pdfOfObjects([
    '<< /Pages 2 0 R >>',
    `<< /Kids [${kids}] /MediaBox [0 0 612 792] >>`,
    ...Array.from({ length: pages }, () => '<< /Parent 2 0 R >>'),
    ...(decoy ? ['<< /Type /Page /MediaBox [0 0 612 792] >>'] : []),
  ]);
  return {
    name: 'a PDF whose page tree has no /Type',
    type: 'file',
    mimeType: 'application/pdf',
    bytes,
    truth: pages,
  };
}

/** RIFF/WAVE with a 16-byte `fmt ` chunk and then `rest`. */
function wavWith(
  fmt: { tag: number; channels: number; rate: number; byteRate: number; align: number; bits: number },
  rest: Uint8Array,
): Uint8Array {
  const head = new Uint8Array(36);
  const view = new DataView(head.buffer);
  head.set(encoder.encode('RIFF'), 0);
  view.setUint32(4, 28 + rest.length, true);
  head.set(encoder.encode('WAVEfmt '), 8);
  view.setUint32(16, 16, true);
  view.setUint16(20, fmt.tag, true);
  view.setUint16(22, fmt.channels, true);
  view.setUint32(24, fmt.rate, true);
  view.setUint32(28, fmt.byteRate, true);
  view.setUint16(32, fmt.align, true);
  view.setUint16(34, fmt.bits, true);
  return concatBytes(head, rest);
}

function dataChunk(declared: number, payload: Uint8Array): Uint8Array {
  const head = new Uint8Array(8);
  head.set(encoder.encode('data'), 0);
  new DataView(head.buffer).setUint32(4, declared, true);
  return concatBytes(head, payload);
}

/** 16-bit mono PCM at 8 kHz: 16,000 bytes a second. */
const pcm8k = { tag: 1, channels: 1, rate: 8000, byteRate: 16000, align: 2, bits: 16 };

/** A `data` chunk that declares 0 bytes, followed by `seconds` of samples. */
export function zeroDataWav(seconds: number): Hostile {
  const bytes = wavWith(pcm8k, dataChunk(0, new Uint8Array(seconds * pcm8k.byteRate)));
  return {
    name: 'a WAV whose data chunk declares 0 bytes',
    type: 'audio',
    mimeType: 'audio/wav',
    bytes,
    truth: seconds,
  };
}

/** A 2-byte `data` chunk, then a second one holding `seconds` of samples. */
export function twoDataChunksWav(seconds: number): Hostile {
  const samples = new Uint8Array(seconds * pcm8k.byteRate);
  const bytes = wavWith(
    pcm8k,
    concatBytes(dataChunk(2, new Uint8Array(2)), dataChunk(samples.length, samples)),
  );
  return {
    name: 'a WAV with a tiny first data chunk',
    type: 'audio',
    mimeType: 'audio/wav',
    bytes,
    truth: seconds,
  };
}

/**
 * MPEG audio (format tag 0x55) under a header whose byte rate claims 12 MB/s, agreeing with its own
 * sample rate and block size: MPEG-2.5 layer III at 8 kbit/s plays 1,000 bytes a second.
 */
export function mpegInWav(seconds: number): Hostile {
  const frames = new Uint8Array(seconds * 1000);
  // MPEG-2.5 layer III, 8 kbit/s, 8 kHz, mono: frame header FF E2 18 C4, 144 bytes a frame... as sync
  // bytes a decoder finds; the rest is silence.
  for (let at = 0; at + 4 <= frames.length; at += 144) frames.set([0xff, 0xe2, 0x18, 0xc4], at);
  const header = { tag: 0x55, channels: 1, rate: 375_000, byteRate: 12_000_000, align: 32, bits: 0 };
  const bytes = wavWith(header, dataChunk(frames.length, frames));
  return {
    name: 'MPEG audio in a WAV claiming 12 MB/s',
    type: 'audio',
    mimeType: 'audio/wav',
    bytes,
    truth: seconds,
  };
}

/** A GIF whose logical screen is 1×1 and whose one frame is `side`×`side`. */
export function largeFrameGif(side: number): Hostile {
  const head = new Uint8Array([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 1, 0, 1, 0, 0, 0, 0]);
  const frame = new Uint8Array(10);
  const view = new DataView(frame.buffer);
  frame[0] = 0x2c;
  view.setUint16(5, side, true);
  view.setUint16(7, side, true);
  frame[9] = 0x80; // a local color table of 2 colours
  const table = new Uint8Array(6);
  // LZW minimum code size 2; one sub-block holding the clear code (4) and the end code (5) in 3 bits each.
  const data = new Uint8Array([2, 1, 0x2c, 0, 0x3b]);
  const bytes = concatBytes(head, frame, table, data);
  return {
    name: 'a GIF whose frame is larger than its screen',
    type: 'image',
    mimeType: 'image/gif',
    bytes,
    truth: [side, side],
  };
}

/**
 * A PDF of about 2 KB whose one object stream inflates to `inflatedKiB` KiB of `/Count 1 `: the input
 * on which a pattern that scans forward from every `/Count` does quadratic work.
 */
export async function countBombPdf(inflatedKiB = 768): Promise<Uint8Array> {
  const text = '/Count 1 '.repeat(Math.ceil((inflatedKiB * 1024) / 9));
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('deflate'));
  const packed = new Uint8Array(await new Response(stream).arrayBuffer());
  const head = encoder.encode(
    `%PDF-1.5\n1 0 obj\n<< /Type /ObjStm /N 1 /First 0 /Filter /FlateDecode /Length ${packed.length} >>\nstream\n`,
  );
  return concatBytes(
    head,
    packed,
    encoder.encode('\nendstream\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n'),
  );
}
