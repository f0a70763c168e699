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
  let pdf = '%PDF-1.4\n';
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
