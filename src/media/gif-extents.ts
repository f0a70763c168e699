import { createExtents, declare, type Extents, reach } from './image-extents';
import { byteAt, uint16le } from './read-bytes';

// A GIF's logical screen and every image descriptor's left + width and top + height: a frame may be
// larger than the screen (1×1 with a 4000×4000 frame), and decoders differ on whether they clip it.
// Extensions and image data are skipped sub-block by sub-block, so each step moves on at least a byte.

function skipSubBlocks(bytes: Uint8Array, at: number, extents: Extents): number {
  let next = at;
  while (next < bytes.length) {
    extents.steps++;
    const size = byteAt(bytes, next);
    next += 1 + size;
    if (size === 0) break;
  }
  return next;
}

function colorTableBytes(flags: number): number {
  return flags & 0x80 ? 3 << ((flags & 0x07) + 1) : 0;
}

export function gifExtents(bytes: Uint8Array): Extents {
  const extents = createExtents();
  extents.steps++;
  declare(extents, uint16le(bytes, 6), uint16le(bytes, 8));
  let at = 13 + colorTableBytes(byteAt(bytes, 10));
  while (at < bytes.length) {
    extents.steps++;
    const block = byteAt(bytes, at);
    if (block === 0x2c && at + 10 <= bytes.length) {
      const [left, top] = [uint16le(bytes, at + 1), uint16le(bytes, at + 3)];
      reach(extents, left + uint16le(bytes, at + 5), top + uint16le(bytes, at + 7));
      // The descriptor, its local color table, the LZW minimum code size, then the data sub-blocks.
      at = skipSubBlocks(bytes, at + 10 + colorTableBytes(byteAt(bytes, at + 9)) + 1, extents);
    } else if (block === 0x21) {
      at = skipSubBlocks(bytes, at + 2, extents);
    } else {
      break; // the trailer (0x3B), or bytes a decoder stops at
    }
  }
  return extents;
}
