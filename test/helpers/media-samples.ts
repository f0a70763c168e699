import { concatBytes } from '../../src/encoding/bytes';

// Small real media files for tests, made here so no binary is committed: a PNG of a chosen size
// (a valid signature and IHDR chunk with its CRC, then one IDAT and IEND), a PDF with a page tree of
// `pages` pages, and a WAV of silence of a chosen length.

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

export function base64Of(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** A PNG whose header says `width` × `height` (its pixel data is a stub: size readers read the header). */
export function pngOf(width: number, height: number): Uint8Array {
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const signature = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return concatBytes(
    signature,
    chunk('IHDR', ihdr),
    chunk('IDAT', new Uint8Array([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])),
    chunk('IEND', new Uint8Array()),
  );
}

/** A PDF of `pages` empty pages, uncompressed, with `text` on the first and a correct cross-reference table. */
export function pdfOf(pages: number, text = 'Invoice 42: total 100 EUR'): Uint8Array {
  const kids = Array.from({ length: pages }, (_, i) => `${4 + i} 0 R`).join(' ');
  const stream = `BT (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`,
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    ...Array.from({ length: pages }, (_, i) =>
      i === 0
        ? '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 3 0 R >>'
        : '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>',
    ),
  ];
  return pdfOfObjects(objects, '1.4');
}

/** A PDF of `objects` (object 1 is the catalog), with a correct cross-reference table. */
export function pdfOfObjects(objects: string[], version = '1.7'): Uint8Array {
  let pdf = `%PDF-${version}\n`;
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(pdf.length);
    pdf += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  pdf += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(pdf);
}

export interface WavShape {
  rate?: number;
  bits?: number;
  channels?: number;
  /** The fmt chunk's format tag: 1 is PCM. */
  tag?: number;
  /** The byte rate the header claims; by default the true one. */
  byteRate?: number;
  /** The data chunk's declared size; by default the true one. */
  dataSize?: number;
}

/** A WAV of `seconds` of silence: 16-bit mono PCM at 8 kHz unless `shape` says otherwise. */
export function wavOf(seconds: number, shape: WavShape = {}): Uint8Array {
  const { rate = 8000, bits = 16, channels = 1, tag = 1 } = shape;
  const blockAlign = channels * (bits / 8);
  const data = Math.round(seconds * rate) * blockAlign;
  const out = new Uint8Array(44 + data);
  const view = new DataView(out.buffer);
  const text = (at: number, s: string) => out.set(new TextEncoder().encode(s), at);
  text(0, 'RIFF');
  view.setUint32(4, 36 + data, true);
  text(8, 'WAVE');
  text(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, tag, true);
  view.setUint16(22, channels, true);
  view.setUint32(24, rate, true);
  view.setUint32(28, shape.byteRate ?? rate * blockAlign, true);
  view.setUint16(32, blockAlign, true);
  view.setUint16(34, bits, true);
  text(36, 'data');
  view.setUint32(40, shape.dataSize ?? data, true);
  return out;
}

/** A RIFF chunk: its four-letter id, its size (the payload's unless `declared`), the payload, a pad byte. */
export function riffChunk(id: string, payload: Uint8Array, declared = payload.length): Uint8Array {
  const out = new Uint8Array(8 + payload.length + (payload.length % 2));
  out.set(new TextEncoder().encode(id), 0);
  new DataView(out.buffer).setUint32(4, declared, true);
  out.set(payload, 8);
  return out;
}

function le16(value: number): number[] {
  return [value & 0xff, (value >> 8) & 0xff];
}

function le24(value: number): number[] {
  return [value & 0xff, (value >> 8) & 0xff, (value >> 16) & 0xff];
}

function be16(value: number): number[] {
  return [(value >> 8) & 0xff, value & 0xff];
}

export interface Frame {
  left?: number;
  top?: number;
  width: number;
  height: number;
}

/**
 * A GIF89a of a `width` × `height` logical screen (no global color table) and `frames`, each after a
 * graphic control extension, with a stub of LZW data in one sub-block: size readers read the headers.
 */
export function gifOf(width: number, height: number, frames: Frame[] = [{ width, height }]): Uint8Array {
  const parts = [
    new TextEncoder().encode('GIF89a'),
    new Uint8Array([...le16(width), ...le16(height), 0, 0, 0]),
  ];
  for (const { left = 0, top = 0, width: w, height: h } of frames) {
    parts.push(new Uint8Array([0x21, 0xf9, 4, 0, 10, 0, 0, 0]));
    parts.push(
      new Uint8Array([0x2c, ...le16(left), ...le16(top), ...le16(w), ...le16(h), 0, 2, 2, 0x4c, 0x01, 0]),
    );
  }
  parts.push(new Uint8Array([0x3b]));
  return concatBytes(...parts);
}

function jpegSegment(marker: number, payload: number[]): number[] {
  return [0xff, marker, ...be16(payload.length + 2), ...payload];
}

/** A baseline frame header (SOF0) of one 8-bit component. */
function sof0(width: number, height: number): number[] {
  return jpegSegment(0xc0, [8, ...be16(height), ...be16(width), 1, 1, 0x11, 0]);
}

/** A start of scan and a few bytes of entropy-coded data, with a stuffed 0xFF 0x00 and a restart marker. */
const scan = [...jpegSegment(0xda, [1, 1, 0, 0, 63, 0]), 0x12, 0xff, 0x00, 0x34, 0xff, 0xd0, 0x56];

/**
 * A JFIF JPEG whose frame headers give each of `sizes` in turn (each followed by a scan), optionally with an
 * EXIF APP1 segment holding a thumbnail JPEG of `thumbnail` size: size readers read the markers.
 */
export function jpegOf(sizes: [number, number][], thumbnail?: [number, number]): Uint8Array {
  const jfif = [...new TextEncoder().encode('JFIF\0'), 1, 1, 0, 0, 1, 0, 1, 0, 0];
  const bytes = [0xff, 0xd8, ...jpegSegment(0xe0, jfif)];
  if (thumbnail !== undefined) {
    const exif = [
      ...new TextEncoder().encode('Exif\0\0'),
      0xff,
      0xd8,
      ...sof0(...thumbnail),
      ...scan,
      0xff,
      0xd9,
    ];
    bytes.push(...jpegSegment(0xe1, exif));
  }
  for (const [width, height] of sizes) bytes.push(...sof0(width, height), ...scan);
  bytes.push(0xff, 0xd9);
  return new Uint8Array(bytes);
}

/** A VP8L bitstream chunk payload of `width` × `height` (its signature and packed size, then a stub). */
function vp8l(width: number, height: number): Uint8Array {
  const bits = ((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14);
  return new Uint8Array([
    0x2f,
    bits & 0xff,
    (bits >>> 8) & 0xff,
    (bits >>> 16) & 0xff,
    (bits >>> 24) & 0xff,
    0,
  ]);
}

/** A WebP: a lone VP8L bitstream, or a VP8X canvas of `width` × `height` with animation frames (ANMF). */
export function webpOf(width: number, height: number, frames?: Frame[]): Uint8Array {
  const chunks: Uint8Array[] = [];
  if (frames === undefined) chunks.push(riffChunk('VP8L', vp8l(width, height)));
  else {
    chunks.push(riffChunk('VP8X', new Uint8Array([0x02, 0, 0, 0, ...le24(width - 1), ...le24(height - 1)])));
    chunks.push(riffChunk('ANIM', new Uint8Array(6)));
    for (const { left = 0, top = 0, width: w, height: h } of frames) {
      const header = new Uint8Array([
        ...le24(left / 2),
        ...le24(top / 2),
        ...le24(w - 1),
        ...le24(h - 1),
        0,
        0,
        0,
        0,
      ]);
      chunks.push(riffChunk('ANMF', concatBytes(header, riffChunk('VP8L', vp8l(w, h)))));
    }
  }
  const body = concatBytes(new TextEncoder().encode('WEBP'), ...chunks);
  return concatBytes(riffChunk('RIFF', body));
}

/** An APNG: a PNG of `width` × `height` whose one animation frame control (fcTL) says `frame`. */
export function apngOf(width: number, height: number, frame: Frame): Uint8Array {
  const png = pngOf(width, height);
  const fctl = new Uint8Array(26);
  const view = new DataView(fctl.buffer);
  [0, frame.width, frame.height, frame.left ?? 0, frame.top ?? 0].forEach((value, i) => {
    view.setUint32(i * 4, value);
  });
  const ihdrEnd = 8 + 25;
  return concatBytes(png.subarray(0, ihdrEnd), chunk('fcTL', fctl), png.subarray(ihdrEnd));
}
