import { createExtents, declare, type Extents, reach } from './image-extents';
import { ascii, uint32be } from './read-bytes';

// A PNG's IHDR size, and each APNG frame's (fcTL) x offset + width and y offset + height: the spec says
// a frame must lie within the IHDR canvas, but a decoder need not check, so the largest counts.

export function pngExtents(bytes: Uint8Array): Extents {
  const extents = createExtents();
  for (let at = 8; at + 12 <= bytes.length; ) {
    extents.steps++;
    const length = uint32be(bytes, at);
    const type = ascii(bytes, at + 4, 4);
    const data = at + 8;
    if (type === 'IHDR' && at === 8) declare(extents, uint32be(bytes, data), uint32be(bytes, data + 4));
    if (type === 'fcTL' && data + 20 <= bytes.length) {
      const [width, height] = [uint32be(bytes, data + 4), uint32be(bytes, data + 8)];
      reach(extents, uint32be(bytes, data + 12) + width, uint32be(bytes, data + 16) + height);
    }
    if (type === 'IEND' || extents.declared === undefined) break; // IHDR must come first
    at += 12 + length;
  }
  return extents;
}
