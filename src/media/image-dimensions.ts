import { unknownImageSide } from '../model/media-tokens';
import { gifExtents } from './gif-extents';
import type { Extents } from './image-extents';
import { jpegExtents } from './jpeg-extents';
import { pngExtents } from './png-extents';
import type { Priced } from './pricing-basis';
import { ascii, byteAt } from './read-bytes';
import { webpExtents } from './webp-extents';

// The largest size any decoder could render from an image's bytes. The format is the one the bytes'
// signature names, not the declared MIME type: a provider's decoder sniffs the bytes too, so PNG bytes
// labelled image/gif are measured as the PNG they are.

export interface ImageDimensions extends Priced {
  width: number;
  height: number;
  /** Blocks, chunks, segments or bytes looked at: linear in the file's size. */
  steps: number;
}

interface ImageFormat {
  name: string;
  mimeType: string;
  opens: (bytes: Uint8Array) => boolean;
  walk: (bytes: Uint8Array) => Extents;
}

const formats: ImageFormat[] = [
  {
    name: 'PNG',
    mimeType: 'image/png',
    opens: (bytes) => ascii(bytes, 0, 8) === '\x89PNG\r\n\x1a\n',
    walk: pngExtents,
  },
  {
    name: 'JPEG',
    mimeType: 'image/jpeg',
    opens: (bytes) => byteAt(bytes, 0) === 0xff && byteAt(bytes, 1) === 0xd8 && byteAt(bytes, 2) === 0xff,
    walk: jpegExtents,
  },
  {
    name: 'GIF',
    mimeType: 'image/gif',
    opens: (bytes) => ['GIF87a', 'GIF89a'].includes(ascii(bytes, 0, 6)),
    walk: gifExtents,
  },
  {
    name: 'WebP',
    mimeType: 'image/webp',
    opens: (bytes) => ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP',
    walk: webpExtents,
  },
];

export function imageDimensions(bytes: Uint8Array, mimeType: string): ImageDimensions {
  const format = formats.find((candidate) => candidate.opens(bytes));
  const extents = format?.walk(bytes);
  const label = format !== undefined && format.mimeType !== mimeType ? ` (declared ${mimeType})` : '';
  if (format === undefined || extents === undefined || extents.width === 0 || extents.height === 0) {
    const what =
      format === undefined ? `not PNG, JPEG, GIF or WebP${label}` : `no size in the ${format.name}`;
    const side = unknownImageSide;
    return {
      width: side,
      height: side,
      basis: 'limit',
      why: `${side}×${side}: ${what}`,
      steps: extents?.steps ?? 0,
    };
  }
  const { width, height, declared, sizes, steps } = extents;
  const read = declared !== undefined && declared.width === width && declared.height === height;
  const why = read
    ? `${width}×${height}: the ${format.name} header${label}`
    : `${width}×${height}: the largest reach of ${sizes} sizes in the ${format.name}${label}`;
  return { width, height, basis: read ? 'read' : 'bounded', why, steps };
}
