import { createExtents, declare, type Extents, reach } from './image-extents';
import { byteAt, uint16be } from './read-bytes';

// Every frame header (SOFn) of a JPEG and of any image after its end (an MPO's second picture, or a file
// simply appended): a decoder may take a later SOF than the first, or the largest picture. A DNL marker
// may give the height a SOF left as 0. Segments are skipped by their length, so bytes inside an APPn
// segment are never read as markers: an EXIF thumbnail there is a JPEG no decoder renders as the image
// (libjpeg, browsers and PIL decode the main marker stream), and reading markers out of EXIF or ICC
// bytes would find sizes that are not there. Entropy-coded data is scanned a byte a step.

function isFrameHeader(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

function isStandalone(marker: number): boolean {
  return marker === 0x00 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0xff;
}

export function jpegExtents(bytes: Uint8Array): Extents {
  const extents = createExtents();
  let inImage = false;
  for (let at = 0; at + 1 < bytes.length; ) {
    extents.steps++;
    const marker = byteAt(bytes, at + 1);
    if (byteAt(bytes, at) !== 0xff || (!inImage && marker !== 0xd8)) {
      at++; // entropy-coded data, or bytes between images: a decoder looks for the next marker
    } else if (marker === 0xd8 || marker === 0xd9) {
      inImage = marker === 0xd8;
      at += 2;
    } else if (isStandalone(marker)) {
      at += marker === 0xff ? 1 : 2; // a fill byte, a stuffed zero, a restart marker
    } else {
      const length = uint16be(bytes, at + 2);
      if (isFrameHeader(marker)) declare(extents, uint16be(bytes, at + 7), uint16be(bytes, at + 5));
      if (marker === 0xdc) reach(extents, 0, uint16be(bytes, at + 4)); // DNL: the number of lines
      at += 2 + Math.max(length, 2);
    }
  }
  return extents;
}
