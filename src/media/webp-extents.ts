import { createExtents, declare, type Extents, reach } from './image-extents';
import { ascii, byteAt, uint16le, uint24le, uint32le } from './read-bytes';

// A WebP's canvas (VP8X), its bitstream sizes (VP8, VP8L), and each animation frame (ANMF) at its
// offset, with the bitstreams inside the frame: libwebp's demuxer rejects a frame off the canvas, but
// another decoder need not, so the largest reach counts. The RIFF size is not trusted: the walk goes to
// the end of the bytes.

/** The size of a VP8 or VP8L bitstream chunk's payload at `at`, if its signature is there. */
function bitstreamSize(bytes: Uint8Array, id: string, at: number): [number, number] | undefined {
  if (
    id === 'VP8 ' &&
    byteAt(bytes, at + 3) === 0x9d &&
    byteAt(bytes, at + 4) === 0x01 &&
    byteAt(bytes, at + 5) === 0x2a
  ) {
    return [uint16le(bytes, at + 6) & 0x3fff, uint16le(bytes, at + 8) & 0x3fff];
  }
  if (id === 'VP8L' && byteAt(bytes, at) === 0x2f) {
    const bits = uint32le(bytes, at + 1);
    return [(bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1];
  }
  return undefined;
}

function walkChunks(
  bytes: Uint8Array,
  start: number,
  end: number,
  frame: [number, number] | undefined,
  extents: Extents,
) {
  for (let at = start; at + 8 <= end; ) {
    extents.steps++;
    const id = ascii(bytes, at, 4);
    const size = uint32le(bytes, at + 4);
    const data = at + 8;
    const bitstream = bitstreamSize(bytes, id, data);
    if (bitstream !== undefined && frame === undefined) declare(extents, ...bitstream);
    if (bitstream !== undefined && frame !== undefined)
      reach(extents, frame[0] + bitstream[0], frame[1] + bitstream[1]);
    if (id === 'VP8X' && frame === undefined)
      declare(extents, uint24le(bytes, data + 4) + 1, uint24le(bytes, data + 7) + 1);
    if (id === 'ANMF' && frame === undefined) {
      const offset: [number, number] = [uint24le(bytes, data) * 2, uint24le(bytes, data + 3) * 2];
      reach(extents, offset[0] + uint24le(bytes, data + 6) + 1, offset[1] + uint24le(bytes, data + 9) + 1);
      walkChunks(bytes, data + 16, Math.min(end, data + size), offset, extents);
    }
    at = data + size + (size % 2);
  }
}

export function webpExtents(bytes: Uint8Array): Extents {
  const extents = createExtents();
  walkChunks(bytes, 12, bytes.length, undefined, extents);
  return extents;
}
