import { concatBytes } from '../../src/encoding/bytes';

// Crafted PDFs for the page counter: objects numbered from 1 in the order given, each `n 0 obj … endobj`,
// and object streams (PDF 1.5) holding objects without `obj`, deflated as a writer would.

const encoder = new TextEncoder();

/** A PDF of these objects (text or bytes), numbered from 1. */
export function pdfOfObjects(objects: (string | Uint8Array)[]): Uint8Array {
  const parts: Uint8Array[] = [encoder.encode('%PDF-1.7\n')];
  objects.forEach((object, i) => {
    parts.push(encoder.encode(`${i + 1} 0 obj\n`));
    parts.push(typeof object === 'string' ? encoder.encode(object) : object);
    parts.push(encoder.encode('\nendobj\n'));
  });
  parts.push(encoder.encode('trailer\n<< /Root 1 0 R >>\n%%EOF\n'));
  return concatBytes(...parts);
}

export async function deflate(bytes: Uint8Array | string): Promise<Uint8Array> {
  const blob = new Blob([typeof bytes === 'string' ? bytes : bytes.slice()]);
  const stream = blob.stream().pipeThrough(new CompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** A stream object: its dictionary's entries (without `<<`/`>>`) and its data, /Length added. */
export function streamObject(entries: string, data: Uint8Array): Uint8Array {
  return concatBytes(
    encoder.encode(`<< ${entries} /Length ${data.length} >>\nstream\n`),
    data,
    encoder.encode('\nendstream'),
  );
}

/** A deflated object stream holding `objects` (numbered from `firstNumber`), typed /ObjStm unless `typed` is false. */
export async function objectStreamOf(
  objects: string[],
  firstNumber = 100,
  typed = true,
): Promise<Uint8Array> {
  let offsets = '';
  let body = '';
  objects.forEach((object, i) => {
    offsets += `${firstNumber + i} ${body.length} `;
    body += `${object}\n`;
  });
  const data = await deflate(offsets + body);
  return streamObject(
    `${typed ? '/Type /ObjStm ' : ''}/N ${objects.length} /First ${offsets.length} /Filter /FlateDecode`,
    data,
  );
}

/** `text` repeated `times` times, joined by a space. */
export const repeat = (text: string, times: number): string =>
  Array.from({ length: times }, () => text).join(' ');
