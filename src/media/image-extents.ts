// What a walk over an image file finds: the size its main header declares, and the largest extents any
// header or frame in it reaches, which is what a decoder might allocate and render.

export interface Extents {
  /** The size the file's main header states (PNG IHDR, GIF screen, first JPEG SOF, WebP canvas). */
  declared: { width: number; height: number } | undefined;
  /** The largest right edge and bottom edge of any size found, the declared one included. */
  width: number;
  height: number;
  /** How many sizes were found. */
  sizes: number;
  /** Blocks, chunks, segments or bytes looked at: linear in the file's size. */
  steps: number;
}

export function createExtents(): Extents {
  return { declared: undefined, width: 0, height: 0, sizes: 0, steps: 0 };
}

/** A frame, canvas or header that reaches `right` × `bottom` pixels from the top left. */
export function reach(extents: Extents, right: number, bottom: number): void {
  extents.width = Math.max(extents.width, right);
  extents.height = Math.max(extents.height, bottom);
  extents.sizes++;
}

/** The file's main size: the first one declared counts as the declaration, every one as a reach. */
export function declare(extents: Extents, width: number, height: number): void {
  extents.declared ??= { width, height };
  reach(extents, width, height);
}
